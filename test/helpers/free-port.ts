/** Free ports for tests; the cluster (src/dev) hands them out too, from the same set. */
export { freePort } from '../../src/dev/free-port';
