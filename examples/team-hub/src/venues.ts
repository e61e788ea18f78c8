import { type Tool, tool } from '@rxagent/core';
import { z } from 'zod';

/** A venue of the small local data set the planner searches. */
export interface Venue {
  readonly name: string;
  readonly city: string;
  readonly capacity: number;
  /** CNY per person per night, breakfast included. */
  readonly roomRate: number;
  /** CNY per day for a meeting room (0 when included). */
  readonly meetingRoomPerDay: number;
  /** CNY per person, round trip from Shanghai. */
  readonly transport: number;
  readonly note: string;
}

/** The venues the planner can choose from. */
export const VENUES: readonly Venue[] = [
  {
    name: 'West Lake Retreat',
    city: 'Hangzhou',
    capacity: 20,
    roomRate: 880,
    meetingRoomPerDay: 0,
    transport: 146,
    note: 'lakeside, meeting room included, 15 min from Hangzhou East station',
  },
  {
    name: 'Xixi Wetland Lodge',
    city: 'Hangzhou',
    capacity: 14,
    roomRate: 620,
    meetingRoomPerDay: 1800,
    transport: 146,
    note: 'quiet, bike paths, meeting room for 16 on request',
  },
  {
    name: 'Qiandao Lake Resort',
    city: 'Hangzhou',
    capacity: 60,
    roomRate: 1150,
    meetingRoomPerDay: 2500,
    transport: 420,
    note: '2.5 h by coach from the station, team-building activities on site',
  },
  {
    name: 'Pudong Conference Hotel',
    city: 'Shanghai',
    capacity: 200,
    roomRate: 950,
    meetingRoomPerDay: 3000,
    transport: 0,
    note: 'next to the office',
  },
];

const findVenuesArgs = z.object({
  city: z.string().describe('City to search, e.g. "Hangzhou"'),
  people: z.number().int().positive().describe('How many people must fit'),
});

/** The planner's tool: venues in a city that fit the group, cheapest first. */
export const findVenues: Tool<z.infer<typeof findVenuesArgs>> = tool({
  name: 'find_venues',
  description: 'List offsite venues in a city that fit the group, cheapest room rate first.',
  parameters: findVenuesArgs,
  execute: ({ city, people }) => {
    const fits = VENUES.filter(
      (venue) => venue.city.toLowerCase() === city.trim().toLowerCase() && venue.capacity >= people,
    ).sort((a, b) => a.roomRate - b.roomRate);
    if (fits.length === 0) return `No venue in ${city} fits ${people} people.`;
    return fits
      .map(
        (v) =>
          `${v.name}: ${v.roomRate} CNY/person/night, meeting room ${v.meetingRoomPerDay === 0 ? 'included' : `${v.meetingRoomPerDay} CNY/day`}, transport ${v.transport} CNY/person, capacity ${v.capacity} (${v.note})`,
      )
      .join('\n');
  },
});

const estimateArgs = z.object({
  venue: z.string().describe('Exact venue name, as find_venues lists it'),
  people: z.number().int().positive(),
  nights: z.number().int().min(0).max(14),
  budget: z.number().positive().describe('Total budget in CNY'),
});

/** The critic's tool: the full cost of a plan, computed from the data set, against a budget. */
export const estimateBudget: Tool<z.infer<typeof estimateArgs>> = tool({
  name: 'estimate_budget',
  description:
    'Compute the total cost (rooms, meeting room, transport) of an offsite at a venue and compare it with the budget.',
  parameters: estimateArgs,
  execute: ({ venue, people, nights, budget }) => {
    const found = VENUES.find((v) => v.name.toLowerCase() === venue.trim().toLowerCase());
    if (!found) throw new Error(`unknown venue "${venue}"; use a name from find_venues`);
    const days = nights + 1;
    const rooms = found.roomRate * people * nights;
    const meeting = found.meetingRoomPerDay * days;
    const transport = found.transport * people;
    const total = rooms + meeting + transport;
    const margin = budget - total;
    return [
      `${found.name}: ${total} CNY total, ${margin >= 0 ? `within budget (${margin} CNY left of ${budget})` : `OVER budget by ${-margin} CNY`}`,
      `${people} people, ${nights} night(s), ${days} day(s): rooms ${rooms} + meeting room ${meeting} + transport ${transport}`,
    ].join('\n');
  },
});
