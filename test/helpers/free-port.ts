/**
 * Free ports for tests; the cluster (src/dev) hands them out too, from the same set. A port
 * that stays unbound for a while (a Temporal started later, or stopped and started again on it)
 * is a low one: an ephemeral port may meanwhile be taken by any process's outgoing connection.
 */
export { freeLowPort, freePort } from '../../src/dev/free-port';
