// Makes a freshly generated config.xml loopback-only. The file written by `syncthing generate` is simple and
// regular, so a few targeted element edits are plainer than a parse/rebuild round trip (which would also reformat it).
// The config `version` attribute is left alone (36 for 1.19.2): an older one would trigger a migration.
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

export function loopbackConfig(xml: string, s: LoopbackSettings): string {
  let out = editSection(xml, 'gui', {
    address: `127.0.0.1:${s.guiPort}`,
    apikey: s.apiKey,
  });
  out = editSection(out, 'options', {
    listenAddress: `tcp://127.0.0.1:${s.syncPort}`,
    globalAnnounceEnabled: 'false',
    localAnnounceEnabled: 'false',
    relaysEnabled: 'false',
    natEnabled: 'false', // also disables STUN
    urAccepted: '-1',
    autoUpgradeIntervalH: '0',
    crashReportingEnabled: 'false',
    startBrowser: 'false',
    announceLANAddresses: 'false',
    restartOnWakeup: 'false',
    urURL: `https://${NOWHERE}/`,
    releasesURL: `https://${NOWHERE}/`,
    crashReportingURL: `https://${NOWHERE}/`,
    globalAnnounceServer: `https://${NOWHERE}/`,
    stunServer: NOWHERE,
    stunKeepaliveStartS: '0',
    reconnectionIntervalS: String(s.reconnectionIntervalS),
    // With setLowPriority (the default) the monitor's child calls setpgid() and leaves the monitor's process
    // group, so killing the group would miss it. false keeps monitor and child in one group.
    setLowPriority: 'false',
  });
  // The device name defaults to the host name; the instance name makes pending records and recordings stable.
  const own = new RegExp(`(<device id="${s.deviceId}"[^>]*? name=")[^"]*(")`);
  if (!own.test(out)) throw new LabError(`config.xml has no <device id="${s.deviceId}" name="…"> entry for the instance itself`);
  out = out.replace(own, (_m, a: string, b: string) => a + escapeXml(s.name) + b);
  return out;
}

/** Replaces the text of existing child elements of the first <section> element; a missing one is an error. */
function editSection(xml: string, section: string, values: Record<string, string>): string {
  const match = new RegExp(`<${section}[\\s>][\\s\\S]*?</${section}>`).exec(xml);
  if (!match) throw new LabError(`config.xml has no <${section}> element: is this a config written by Syncthing 1.x?`);
  let body = match[0];
  for (const [tag, value] of Object.entries(values)) {
    const element = new RegExp(`<${tag}>[^<]*</${tag}>`);
    if (!element.test(body)) throw new LabError(`config.xml <${section}> has no <${tag}> element: is this a config written by Syncthing 1.x?`);
    body = body.replace(element, () => `<${tag}>${escapeXml(value)}</${tag}>`);
  }
  return xml.slice(0, match.index) + body + xml.slice(match.index + match[0].length);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
