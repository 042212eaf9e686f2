// Makes a freshly generated config.xml loopback-only, for every config generation synconf starts (1.12.1 writes
// version 32, 1.19.2 36, 1.29.5 37). The file written by `syncthing generate` is simple and regular, so a few targeted
// element edits are plainer than a parse/rebuild round trip (which would also reformat it). An element a generation
// does not write is added (Syncthing ignores elements it does not know), so no edit depends on one generation's
// elements; after start, loopbackViolations() checks through the REST config API that the settings are in force.
// The config `version` attribute is left alone: an older one would trigger a migration.
import { LabError } from './errors.js';

export interface LoopbackSettings {
  /** instance name, also used as the device name so recordings do not depend on the host name */
  name: string;
  deviceId: string;
  guiPort: number;
  syncPort: number;
  apiKey: string;
  reconnectionIntervalS: number;
}

/** Where anything that would go out to the internet points instead: the discard port on loopback. */
const NOWHERE = '127.0.0.1:9';

/**
 * Options that keep an instance off the network, by their name in config.xml, which is also their key in
 * GET /rest/config's `options`, with the value that REST answer must show.
 */
const OFF: Record<string, boolean | number> = {
  globalAnnounceEnabled: false,
  localAnnounceEnabled: false,
  relaysEnabled: false,
  natEnabled: false, // also disables STUN
  urAccepted: -1,
  autoUpgradeIntervalH: 0,
  crashReportingEnabled: false,
  startBrowser: false,
  announceLANAddresses: false,
};

export function loopbackConfig(xml: string, s: LoopbackSettings): string {
  let out = editSection(xml, 'gui', {
    address: `127.0.0.1:${s.guiPort}`,
    apikey: s.apiKey,
  });
  out = editSection(out, 'options', {
    listenAddress: `tcp://127.0.0.1:${s.syncPort}`,
    ...Object.fromEntries(Object.entries(OFF).map(([k, v]) => [k, String(v)])),
    urURL: `https://${NOWHERE}/`,
    releasesURL: `https://${NOWHERE}/`,
    crashReportingURL: `https://${NOWHERE}/`,
    globalAnnounceServer: `https://${NOWHERE}/`,
    stunServer: NOWHERE,
    stunKeepaliveStartS: '0',
    restartOnWakeup: 'false', // up to 1.2x only; later ones ignore it
    reconnectionIntervalS: String(s.reconnectionIntervalS),
    // With setLowPriority (the default) the monitor's child calls setpgid() and leaves the monitor's process
    // group, so killing the group would miss it. false keeps monitor and child in one group.
    setLowPriority: 'false',
  });
  // The device name defaults to the host name; the instance name makes pending records and recordings stable.
  const own = new RegExp(`(<device id="${s.deviceId}"[^>]*? name=")[^"]*(")`);
  if (!own.test(out))
    throw new LabError(`config.xml has no <device id="${s.deviceId}" name="…"> entry for the instance itself`);
  out = out.replace(own, (_m, a: string, b: string) => a + escapeXml(s.name) + b);
  return out;
}

/** Sets child elements of the first <section> element: replaces the text of one that exists, adds one that does not. */
function editSection(xml: string, section: string, values: Record<string, string>): string {
  const match = new RegExp(`<${section}[\\s>][\\s\\S]*?</${section}>`).exec(xml);
  if (!match) throw new LabError(`config.xml has no <${section}> element: is this a config written by Syncthing 1.x?`);
  let body = match[0];
  for (const [tag, value] of Object.entries(values)) {
    const element = new RegExp(`<${tag}>[^<]*</${tag}>`);
    const text = `<${tag}>${escapeXml(value)}</${tag}>`;
    body = element.test(body)
      ? body.replace(element, () => text)
      : body.replace(new RegExp(`(\\s*)</${section}>$`), (_m, ws: string) => `${ws}    ${text}${ws}</${section}>`);
  }
  return xml.slice(0, match.index) + body + xml.slice(match.index + match[0].length);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * What GET /rest/config shows that is not loopback-only (empty when all is in force). An option the agent does not
 * report at all is a feature that generation lacks, so it cannot be on.
 */
export function loopbackViolations(config: unknown, s: Pick<LoopbackSettings, 'guiPort' | 'syncPort'>): string[] {
  const c = config as { gui?: { address?: unknown }; options?: Record<string, unknown> };
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const gui = `127.0.0.1:${s.guiPort}`;
  if (!same(c.gui?.address, gui)) out.push(`gui.address is ${JSON.stringify(c.gui?.address)}, not "${gui}"`);
  const listen = [`tcp://127.0.0.1:${s.syncPort}`];
  if (!same(c.options?.listenAddresses, listen))
    out.push(`options.listenAddresses is ${JSON.stringify(c.options?.listenAddresses)}, not ${JSON.stringify(listen)}`);
  for (const [key, value] of Object.entries(OFF)) {
    if (c.options && key in c.options && !same(c.options[key], value))
      out.push(`options.${key} is ${JSON.stringify(c.options[key])}, not ${JSON.stringify(value)}`);
  }
  return out;
}
