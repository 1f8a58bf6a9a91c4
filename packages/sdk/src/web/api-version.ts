/**
 * The web SDK's contract version. Every manifest made by `definePlugin` carries the version of the SDK
 * copy that built it; the host refuses manifests from another copy, which is how a second bundled SDK
 * (a plugin shipping its own) is caught at start instead of failing subtly at run time.
 */
export const SDK_API_VERSION = '1.0';

export function isCompatibleApiVersion(version: string, hostVersion: string = SDK_API_VERSION): boolean {
  return version === hostVersion;
}

export function assertApiVersion(version: string, hostVersion: string = SDK_API_VERSION): void {
  if (!isCompatibleApiVersion(version, hostVersion)) {
    throw new Error(`Plugin SDK version ${version} does not match the host's SDK version ${hostVersion}.`);
  }
}
