const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept',
  'access-control-max-age': '86400',
};

/**
 * CORS for the owner's sites only (ALLOWED_ORIGINS), without credentials. A browser request
 * from any other origin is refused before it does anything; a request without Origin (a
 * server, curl) is not a browser's and passes.
 */
export class Cors {
  private readonly allowed: Set<string>;

  constructor(origins: string[]) {
    this.allowed = new Set(origins);
  }

  /** 'none': no Origin; 'allowed': one of the owner's sites; 'refused': any other. */
  judge(origin: string | null): 'none' | 'allowed' | 'refused' {
    if (origin === null) return 'none';
    return this.allowed.has(origin) ? 'allowed' : 'refused';
  }

  /** The headers an answer to an allowed origin carries (with the preflight's when it is one). */
  headers(origin: string | null, preflight: boolean): Record<string, string> {
    if (origin === null || !this.allowed.has(origin)) return { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, vary: 'Origin', ...(preflight ? PREFLIGHT_HEADERS : {}) };
  }
}
