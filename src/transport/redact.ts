// Redaction: secrets become the spec's placeholders before anything is written (cassettes,
// reports) and before a match key is computed. Secrets are the API keys synconf knows, the GUI
// API key and password found in any configuration body (the stored hash, or the plain password a
// request sets, and a clear password an agent would echo), a folder device's encryptionPassword (a secret, says the
// spec), and values a user names by rule. A bcrypt hash becomes
// <PASSWORD_HASH> and any other password <PASSWORD>, so that a recording still shows which of the two an agent stored.

export const API_KEY = '<API_KEY>';
export const PASSWORD_HASH = '<PASSWORD_HASH>';
export const PASSWORD = '<PASSWORD>';
const BCRYPT = /^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/;
/**
 * a bcrypt hash anywhere in text, or what is left of one where a body was cut short: bytes that are not JSON (a
 * truncated /rest/config) are never parsed, and must not let the hash through
 */
const BCRYPT_IN_TEXT = /\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{1,53}/g;
/** the GUI's secrets as members of JSON text, for bodies that do not parse (cut short, or not JSON at all) */
const MEMBERS = /"(apiKey|password|encryptionPassword)"\s*:\s*"((?:[^"\\]|\\.)+)"/g;
/** a folder device's encryption password, as a member of a configuration, a folder or a folder list */
const ENCRYPTION_PASSWORD = '"encryptionPassword"';
/**
 * A secret at least this long is replaced wherever it occurs: no other text holds it by chance. A shorter one only
 * where it stands as a value (a whole header or string, a query value, a word), never inside other text: the key
 * "rest" must not turn /rest/system/ping into /<API_KEY>/system/ping, nor "e" text/plain into t<API_KEY>xt/plain.
 */
const ANYWHERE = 16;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** the secret standing as a value: after a start, quote, =, >, :, a space or a bracket; before their closers */
const asValue = (secret: string) =>
  new RegExp(`(^|[\\s"'=>:,;(\\[])${escapeRegExp(secret)}(?=$|"(?!\\s*:)|[\\s'&#<,;)\\]])`, 'g');
/**
 * a long secret anywhere but as a member name: a server that sets its "API key" to `checks` must not rename the
 * members of the report's JSON ("n.checks is not iterable", and the checks that ran lost)
 */
const anywhere = (secret: string) => new RegExp(`${escapeRegExp(secret)}(?!"\\s*:)`, 'g');

export interface RedactionRules {
  /** header names whose values are replaced by <REDACTED> */
  headers?: string[];
  /** JSON pointers into bodies whose string values are replaced by <REDACTED> */
  jsonPointers?: string[];
  /** regular expressions whose matches are replaced by <REDACTED> */
  patterns?: string[];
}

export class Redactor {
  private readonly secrets = new Map<string, string>();
  constructor(
    apiKeys: string[] = [],
    private readonly rules: RedactionRules = {},
  ) {
    for (const key of apiKeys) if (key) this.secrets.set(key, API_KEY);
  }

  addApiKey(key: string): void {
    if (key && key !== API_KEY) this.secrets.set(key, API_KEY);
  }

  /**
   * learn secrets from a body: the GUI API key and password (hash) of a configuration, or a password a request sets;
   * `parsed` gives the body parsed already, undefined when it is not JSON (a response is parsed once for its checks)
   */
  learnFrom(body: string, parsed?: () => unknown): void {
    const secretsIn = ['"gui"', '"apiKey"', '"password"', ENCRYPTION_PASSWORD];
    if (!secretsIn.some((member) => body.includes(member))) return;
    let doc: unknown;
    try {
      doc = parsed ? parsed() : JSON.parse(body);
    } catch {
      doc = undefined;
    }
    if (doc === undefined) return this.learnFromText(body);
    const gui = (doc as { gui?: Record<string, unknown> })?.gui ?? (doc as Record<string, unknown>);
    if (gui && typeof gui === 'object') {
      if (typeof gui.apiKey === 'string' && gui.apiKey) this.secrets.set(gui.apiKey, API_KEY);
      if (typeof gui.password === 'string' && gui.password)
        this.secrets.set(gui.password, BCRYPT.test(gui.password) ? PASSWORD_HASH : PASSWORD);
    }
    if (body.includes(ENCRYPTION_PASSWORD)) this.learnEncryptionPasswords(doc);
  }

  /** every folder device's encryption password in `doc`, however deep (a configuration, a folder, a list) */
  private learnEncryptionPasswords(doc: unknown): void {
    if (!doc || typeof doc !== 'object') return;
    for (const [member, value] of Object.entries(doc)) {
      if (member === 'encryptionPassword' && typeof value === 'string' && value) this.secrets.set(value, PASSWORD);
      else this.learnEncryptionPasswords(value);
    }
  }

  /** a body that does not parse: its apiKey and password members as the text has them */
  private learnFromText(body: string): void {
    for (const [, member, value] of body.matchAll(MEMBERS)) {
      if (member === 'apiKey') this.addApiKey(value);
      else this.secrets.set(value, BCRYPT.test(value) ? PASSWORD_HASH : PASSWORD);
    }
  }

  text(value: string): string {
    let out = value;
    // replaceAll (split and join took ~5 ms on a replay's report); a function gives the placeholder as it is
    for (const [secret, placeholder] of this.secrets) {
      if (secret === placeholder || !out.includes(secret)) continue;
      out =
        secret.length >= ANYWHERE
          ? out.replace(anywhere(secret), () => placeholder)
          : out.replace(asValue(secret), (_, before: string) => before + placeholder);
    }
    if (out.includes('$2')) out = out.replace(BCRYPT_IN_TEXT, PASSWORD_HASH);
    if (out.includes('"')) out = this.jsonRules(out);
    for (const p of this.rules.patterns ?? []) out = out.replace(new RegExp(p, 'g'), '<REDACTED>');
    return out;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const named = new Set((this.rules.headers ?? []).map((h) => h.toLowerCase()));
    return Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, named.has(k.toLowerCase()) ? '<REDACTED>' : this.text(v)]),
    );
  }

  private jsonRules(body: string): string {
    if (!this.rules.jsonPointers?.length) return body;
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      return body;
    }
    let out = body;
    for (const pointer of this.rules.jsonPointers) {
      let node: unknown = doc;
      for (const key of pointer.split('/').slice(1))
        node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
      if (typeof node === 'string' && node) {
        out = out.split(JSON.stringify(node)).join('"<REDACTED>"');
        // a value redacted once is a secret wherever it appears later: the run variables (written last) too, so
        // that a check relating the two (tilde is agent.home) judges a replay as it judged the live run
        this.secrets.set(node, '<REDACTED>');
      }
    }
    return out;
  }
}

/** what a credential a client sent is logged as, when it is not the key (which the redactor makes <API_KEY>) */
const REDACTED = '<REDACTED>';
/**
 * A header that carries a credential, by meaning rather than spelling: its name in any case, "-", "_" and spaces
 * aside, holds authorization, cookie, session, apikey, token, secret, password or credential: X-API-Key, Api_Key,
 * Authorization, Proxy-Authorization, X-Forwarded-Authorization, Cookie, Set-Cookie, X-CSRF-Token-*, X-Auth-Token, ….
 */
const CREDENTIAL_HEADER = /authori[sz]ation|cookie|session|apikey|token|secret|passw(or)?d|credential/;
/** a query parameter that carries a credential, its name percent-decoded and compared as a header's */
const CREDENTIAL_PARAM = /^(key|auth|pass)$|authori[sz]ation|session|apikey|token|secret|passw(or)?d|credential/;
const meaning = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');

export const isCredentialHeader = (name: string): boolean => CREDENTIAL_HEADER.test(meaning(name));

/** a query parameter's name as the agent reads it ("+" a space, %-escapes decoded; an invalid escape as written) */
function paramName(raw: string): string {
  const name = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** `url` with the value of every credential-carrying query parameter <REDACTED>, whatever its name's spelling */
export function withoutCredentialParams(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const end = url.indexOf('#', start) < 0 ? url.length : url.indexOf('#', start);
  const params = url
    .slice(start + 1, end)
    .split('&')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq >= 0 && CREDENTIAL_PARAM.test(meaning(paramName(p.slice(0, eq)))) ? `${p.slice(0, eq)}=${REDACTED}` : p;
    });
  return url.slice(0, start + 1) + params.join('&') + url.slice(end);
}

const scrubbed = (headers: Record<string, string>, apiKey: string | undefined) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) =>
      isCredentialHeader(name) && value !== apiKey ? [name, REDACTED] : [name, value],
    ),
  );

/**
 * an exchange as a log keeps it (serve's request log, the proxy's HAR): no credential of the client's in clear: the
 * key stays for the redactor to make <API_KEY>, any other key, password, cookie or CSRF token becomes <REDACTED>
 */
export function withoutCredentials<
  X extends {
    request: { url: string; headers: Record<string, string> };
    response?: { headers: Record<string, string> };
  },
>(x: X, apiKey: string | undefined): X {
  const request = {
    ...x.request,
    headers: scrubbed(x.request.headers, apiKey),
    url: withoutCredentialParams(x.request.url),
  };
  return {
    ...x,
    request,
    ...(x.response ? { response: { ...x.response, headers: scrubbed(x.response.headers, apiKey) } } : {}),
  };
}
