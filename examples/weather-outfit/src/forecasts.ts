/** One day's forecast for a city. */
export interface Forecast {
  readonly condition: string;
  readonly lowC: number;
  readonly highC: number;
  /** Chance of rain, 0–100. */
  readonly rainChance: number;
  readonly windKph: number;
}

/**
 * A small local data set standing in for a weather service, so the example runs offline and
 * gives the same answer every time: three days (today, tomorrow, the day after) per city.
 */
export const FORECASTS: Readonly<Record<string, readonly [Forecast, Forecast, Forecast]>> = {
  shanghai: [
    { condition: 'overcast', lowC: 17, highC: 22, rainChance: 30, windKph: 12 },
    { condition: 'light rain', lowC: 16, highC: 21, rainChance: 80, windKph: 18 },
    { condition: 'sunny', lowC: 18, highC: 26, rainChance: 5, windKph: 8 },
  ],
  beijing: [
    { condition: 'sunny', lowC: 6, highC: 15, rainChance: 0, windKph: 20 },
    { condition: 'windy', lowC: 3, highC: 11, rainChance: 10, windKph: 35 },
    { condition: 'cloudy', lowC: 5, highC: 13, rainChance: 20, windKph: 15 },
  ],
  singapore: [
    { condition: 'thunderstorms', lowC: 26, highC: 32, rainChance: 90, windKph: 10 },
    { condition: 'humid, showers', lowC: 26, highC: 31, rainChance: 70, windKph: 9 },
    { condition: 'partly cloudy', lowC: 27, highC: 33, rainChance: 40, windKph: 11 },
  ],
  london: [
    { condition: 'drizzle', lowC: 8, highC: 13, rainChance: 60, windKph: 22 },
    { condition: 'cloudy', lowC: 7, highC: 12, rainChance: 40, windKph: 17 },
    { condition: 'sunny spells', lowC: 6, highC: 14, rainChance: 15, windKph: 14 },
  ],
};

/** The day names `get_weather` understands, as offsets from today. */
export const DAYS = { today: 0, tomorrow: 1, day_after_tomorrow: 2 } as const;

/** A day name of `DAYS`. */
export type Day = keyof typeof DAYS;
