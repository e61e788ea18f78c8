/** One incident of the small local archive the report tool scans. */
export interface Incident {
  readonly id: string;
  /** ISO date. */
  readonly date: string;
  readonly service: string;
  readonly severity: 'SEV1' | 'SEV2' | 'SEV3';
  /** Minutes of customer-facing impact. */
  readonly minutes: number;
  readonly cause: string;
}

/** The 2024 archive. */
export const INCIDENTS: readonly Incident[] = [
  {
    id: 'INC-0107',
    date: '2024-01-09',
    service: 'search',
    severity: 'SEV3',
    minutes: 22,
    cause: 'index rebuild overran',
  },
  {
    id: 'INC-0121',
    date: '2024-01-28',
    service: 'checkout',
    severity: 'SEV2',
    minutes: 41,
    cause: 'bad feature flag',
  },
  {
    id: 'INC-0203',
    date: '2024-02-14',
    service: 'auth',
    severity: 'SEV1',
    minutes: 63,
    cause: 'expired signing key',
  },
  {
    id: 'INC-0318',
    date: '2024-03-18',
    service: 'search',
    severity: 'SEV3',
    minutes: 15,
    cause: 'noisy neighbour',
  },
  {
    id: 'INC-0402',
    date: '2024-04-02',
    service: 'payments-api',
    severity: 'SEV2',
    minutes: 37,
    cause: 'connection pool exhausted',
  },
  {
    id: 'INC-0511',
    date: '2024-05-11',
    service: 'notifications',
    severity: 'SEV3',
    minutes: 90,
    cause: 'queue backlog',
  },
  {
    id: 'INC-0627',
    date: '2024-06-27',
    service: 'checkout',
    severity: 'SEV2',
    minutes: 28,
    cause: 'CDN misconfiguration',
  },
  {
    id: 'INC-0809',
    date: '2024-08-09',
    service: 'auth',
    severity: 'SEV3',
    minutes: 12,
    cause: 'rate limiter too strict',
  },
  {
    id: 'INC-0915',
    date: '2024-09-15',
    service: 'search',
    severity: 'SEV2',
    minutes: 55,
    cause: 'schema migration lock',
  },
  {
    id: 'INC-1004',
    date: '2024-10-04',
    service: 'payments-api',
    severity: 'SEV1',
    minutes: 145,
    cause: 'expired TLS certificate',
  },
  {
    id: 'INC-1019',
    date: '2024-10-19',
    service: 'checkout',
    severity: 'SEV3',
    minutes: 18,
    cause: 'slow third-party tax API',
  },
  {
    id: 'INC-1107',
    date: '2024-11-07',
    service: 'search',
    severity: 'SEV2',
    minutes: 47,
    cause: 'memory leak after deploy',
  },
  {
    id: 'INC-1129',
    date: '2024-11-29',
    service: 'checkout',
    severity: 'SEV2',
    minutes: 72,
    cause: 'Black Friday traffic spike',
  },
  {
    id: 'INC-1216',
    date: '2024-12-16',
    service: 'notifications',
    severity: 'SEV3',
    minutes: 30,
    cause: 'provider outage',
  },
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Oct` for 10. */
export function monthName(month: number): string {
  return MONTHS[month - 1] ?? String(month);
}

/** The incidents of `year` in `month` (1–12). */
export function incidentsIn(year: number, month: number): Incident[] {
  const prefix = `${year}-${String(month).padStart(2, '0')}-`;
  return INCIDENTS.filter((incident) => incident.date.startsWith(prefix));
}

/** A short report over `incidents`: counts by severity, downtime, the worst one, top causes. */
export function summarize(
  year: number,
  months: readonly number[],
  incidents: readonly Incident[],
): string {
  const span =
    months.length === 12
      ? `${year}`
      : `${year} ${monthName(months[0]!)}–${monthName(months[months.length - 1]!)}`;
  if (incidents.length === 0) return `${span}: no incidents.`;
  const count = (severity: Incident['severity']) =>
    incidents.filter((incident) => incident.severity === severity).length;
  const downtime = incidents.reduce((sum, incident) => sum + incident.minutes, 0);
  const worst = [...incidents].sort((a, b) => b.minutes - a.minutes)[0]!;
  return [
    `${span}: ${incidents.length} incidents (${count('SEV1')} SEV1, ${count('SEV2')} SEV2, ${count('SEV3')} SEV3), ${downtime} min of impact.`,
    `Longest: ${worst.id} ${worst.service}, ${worst.minutes} min (${worst.cause}).`,
    ...incidents.map(
      (incident) =>
        `- ${incident.date} ${incident.id} ${incident.severity} ${incident.service} ${incident.minutes} min: ${incident.cause}`,
    ),
  ].join('\n');
}
