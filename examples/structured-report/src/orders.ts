/** One closed order. */
export interface Order {
  readonly region: 'EMEA' | 'APAC' | 'AMER';
  readonly quarter: 'Q2' | 'Q3';
  readonly product: string;
  readonly amount: number;
}

/** A small local order book standing in for a sales database. */
export const ORDERS: readonly Order[] = [
  { region: 'EMEA', quarter: 'Q2', product: 'Analytics Suite', amount: 42_000 },
  { region: 'EMEA', quarter: 'Q2', product: 'Data Connector', amount: 12_500 },
  { region: 'EMEA', quarter: 'Q2', product: 'Support Plus', amount: 8_000 },
  { region: 'EMEA', quarter: 'Q3', product: 'Analytics Suite', amount: 51_000 },
  { region: 'EMEA', quarter: 'Q3', product: 'Analytics Suite', amount: 23_500 },
  { region: 'EMEA', quarter: 'Q3', product: 'Data Connector', amount: 14_000 },
  { region: 'EMEA', quarter: 'Q3', product: 'Support Plus', amount: 9_500 },
  { region: 'APAC', quarter: 'Q2', product: 'Analytics Suite', amount: 38_000 },
  { region: 'APAC', quarter: 'Q2', product: 'Data Connector', amount: 21_000 },
  { region: 'APAC', quarter: 'Q3', product: 'Data Connector', amount: 19_500 },
  { region: 'APAC', quarter: 'Q3', product: 'Analytics Suite', amount: 17_000 },
  { region: 'APAC', quarter: 'Q3', product: 'Support Plus', amount: 6_000 },
  { region: 'AMER', quarter: 'Q2', product: 'Analytics Suite', amount: 60_000 },
  { region: 'AMER', quarter: 'Q3', product: 'Analytics Suite', amount: 61_500 },
  { region: 'AMER', quarter: 'Q3', product: 'Support Plus', amount: 11_000 },
];
