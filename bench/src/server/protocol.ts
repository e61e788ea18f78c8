/** Messages from the server process to the bench. */
export type ServerMessage =
  | { readonly type: 'ready'; readonly baseURL: string }
  | { readonly type: 'parked'; readonly count: number }
  | {
      readonly type: 'stats';
      readonly answered: number;
      readonly parked: number;
      readonly rejected: readonly string[];
      readonly rejectedCount: number;
    }
  | { readonly type: 'ok' };

/** Messages from the bench to the server process. */
export type ParentMessage =
  | { readonly type: 'stats' }
  | { readonly type: 'resetParked' }
  | { readonly type: 'close' };
