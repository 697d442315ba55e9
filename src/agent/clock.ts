// Time as the agent's loops see it: the clock is shared with the simulated runtime (src/api/clock.ts).

export { realClock, type Clock } from '../api/clock.ts';
