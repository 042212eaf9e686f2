// How serve answers a request its recordings hold no answer to: a 404 of its own, not the agent's. Who compares the
// answers (drift --against recordings) tells the two apart by it, without loading the server.

/** the start of the body of such an answer */
export const MISS_PREFIX = 'synconf serve: no recorded answer to ';
