// An agent whose GUI speaks TLS (config.xml's gui tls="true", or a GUI address given as https://): how synconf
// reaches it. Its certificate is verified against Node's trusted roots, or against the certificates a user named
// (--agent-ca FILE: the agent's https-cert.pem, or the CA that signed it): never accepted blindly. Syncthing makes its
// own certificate self-signed, naming the machine's host name (CN and DNS name), never 127.0.0.1: a certificate that
// *is* one of those named is pinned (its bytes are the trust, its name is not checked); one that a named CA signed
// must name the host, as always.
// node:http, https, tls and crypto are loaded when an agent is asked, not by every command that loads the engine
import type http from 'node:http';
import type https from 'node:https';
import type { PeerCertificate } from 'node:tls';

/** certificates trusted for agents, as PEM text, and the DER bytes of each (to pin them) */
interface Trust {
  pem: string;
  pinned: Buffer[];
}

/** what --agent-ca named: the trust of every agent this process reaches over TLS (none: Node's roots) */
let trusted: Trust | undefined;

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** the certificates of a PEM text; throws (with why) when it holds none or one that is not a certificate */
export function parseCertificates(pem: string): Trust {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (!blocks.length) throw new Error('it holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  try {
    return {
      pem: blocks.join('\n'),
      pinned: blocks.map((b) => new (process.getBuiltinModule('node:crypto').X509Certificate)(b).raw),
    };
  } catch (e) {
    throw new Error(`a certificate in it cannot be read (${(e as Error).message})`);
  }
}

/** trust these certificates (and only these) for every agent reached over TLS from now on */
export function trustAgentCertificates(trust: Trust): void {
  trusted = trust;
}

/** the TLS options of a request to an agent: the named certificates pinned, or Node's roots */
export function agentTlsOptions(trust = trusted): https.RequestOptions {
  if (!trust) return {};
  return {
    ca: trust.pem,
    checkServerIdentity: (host: string, cert: PeerCertificate) =>
      trust.pinned.some((raw) => raw.equals(cert.raw))
        ? undefined
        : process.getBuiltinModule('node:tls').checkServerIdentity(host, cert),
  };
}

/** the request function for the URL's scheme, with the agent's TLS options on https */
export function agentRequest(url: URL, options: https.RequestOptions, trust = trusted): http.ClientRequest {
  if (url.protocol !== 'https:') return process.getBuiltinModule('node:http').request(url, options);
  return process.getBuiltinModule('node:https').request(url, { ...options, ...agentTlsOptions(trust) });
}

const NO_TLS = 'no TLS handshake';

/** the agent's certificate was not trusted, in words, or undefined when the error is no certificate failure */
export function certificateFailure(e: NodeJS.ErrnoException): string | undefined {
  const code = e.code ?? '';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `its certificate names another host (${e.message})`;
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) return `its certificate is not trusted: ${e.message}`;
  if (code === 'EPROTO' || code.startsWith('ERR_SSL')) return `${NO_TLS} (${e.message})`;
  return undefined;
}

/** the one line of an agent whose TLS certificate was not trusted (`why`: certificateFailure's words) */
export const untrustedAgent = (option: string, url: string, why: string) =>
  why.startsWith(NO_TLS)
    ? `${option} ${url}: ${why}: its GUI speaks plain HTTP, give ${option} http://${new URL(url).host}`
    : `${option} ${url}: ${why}; to trust the agent's own certificate give --agent-ca FILE (its https-cert.pem, in the agent's home)`;

/** an http:// URL of an agent whose GUI speaks TLS: Syncthing redirects it to https:// (307), said so */
export const tlsRedirect = (option: string, url: string, status: number, location: string | undefined) =>
  (status === 307 || status === 302) && location?.startsWith('https://')
    ? `${option} ${url}: the agent's GUI speaks TLS (it redirects to https://): give ${option} https://${new URL(url).host}`
    : undefined;

/** one request to an agent, its whole answer read (bounded by timeoutMs), for the set-up's few asks */
export function agentFetch(
  url: URL,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs: number; trust?: Trust },
): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = agentRequest(url, { method: init.method ?? 'GET', headers: init.headers }, init.trust ?? trusted);
    // the whole exchange is bounded, as AbortSignal.timeout bounds a fetch (a TimeoutError)
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })),
      init.timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          location: res.headers.location,
        }),
      );
    });
    req.end(init.body);
  });
}
