/** The floor workflow's local activity: no fetch, no processing, no database. */
export const floorActivities = {
  async answer(n: number): Promise<number> {
    return n;
  },
};
