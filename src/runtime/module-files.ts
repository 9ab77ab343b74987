import path from 'node:path';

/**
 * The service runs as TypeScript under tsx (`npm start`, the tests) and as JavaScript compiled by
 * `npm run build` (the image, `npm run cluster`). Modules it starts as threads or processes of
 * their own are named here so that both find them.
 */

/** The module `name` in the folder of `filename`, with the extension `filename` has (.ts or .js). */
export function siblingModule(filename: string, name: string): string {
  return path.join(path.dirname(filename), `${name}${path.extname(filename)}`);
}

/** Whether `filename` is TypeScript source, which a new process or thread runs only through tsx. */
export function isTypeScript(filename: string): boolean {
  return path.extname(filename) === '.ts';
}

/** Node arguments a new process needs to run the modules beside `filename`: tsx for TypeScript. */
export function nodeArgsFor(filename: string): string[] {
  return isTypeScript(filename) ? ['--import', 'tsx'] : [];
}
