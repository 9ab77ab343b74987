import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../config/paths';

/** What docker-compose.yml says of one service (the parts the local cluster and its test read). */
export interface ComposeService {
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; retries?: string; start_period?: string };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  profiles?: string[];
  restart?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

export const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');

/**
 * Compose's interpolation of `${NAME}`, `${NAME:-default}`, `${NAME-default}` and `$$` from
 * `env`, as `docker compose` does it from the shell and `.env`.
 */
export function interpolate(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, fallback: string | undefined) => {
    if (whole === '$$') return '$';
    const set = env[name!];
    if (op === ':-') return set ? set : fallback!;
    if (op === '-') return set ?? fallback!;
    return set ?? '';
  });
}

function interpolateAll<T>(value: T, env: NodeJS.ProcessEnv): T {
  if (typeof value === 'string') return interpolate(value, env) as T;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value) as T;
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, env)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)])) as T;
  return value;
}

/** docker-compose.yml with its anchors merged and its variables interpolated from `env`. */
export function readComposeFile(env: NodeJS.ProcessEnv = process.env, file = COMPOSE_FILE): ComposeFile {
  const raw = parse(readFileSync(file, 'utf8'), { merge: true }) as ComposeFile;
  return { services: interpolateAll(raw.services, env), volumes: raw.volumes ?? {} };
}

/**
 * Maps a path inside a service's container to the repository, through the service's bind mounts
 * (`./deploy/temporal:/deploy:ro`): what the container reads at `/deploy/x`, the cluster reads
 * from `deploy/temporal/x`. Paths outside every bind mount come back unchanged.
 */
export function hostPath(service: ComposeService, containerPath: string): string {
  for (const volume of service.volumes ?? []) {
    const [source, target] = volume.split(':');
    if (!source?.startsWith('.') || !target) continue;
    if (containerPath === target || containerPath.startsWith(`${target}/`)) return path.join(ROOT, source, containerPath.slice(target.length));
  }
  return containerPath;
}
