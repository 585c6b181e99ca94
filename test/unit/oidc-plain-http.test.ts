import { describe, expect, it } from 'vitest';
import { mayUsePlainHttp } from '../../sync-server/identity/oidc';

/** Which http (not https) OpenID issuers Folio agrees to talk to. */
describe('mayUsePlainHttp', () => {
  const allowed = (issuer: string, allow?: string) => mayUsePlainHttp(new URL(issuer), allow);

  it('allows loopback issuers, whose traffic never leaves the machine', () => {
    expect(allowed('http://127.0.0.1:9000')).toBe(true);
    expect(allowed('http://127.8.0.1/realms/x')).toBe(true);
    expect(allowed('http://[::1]:9000')).toBe(true);
    expect(allowed('http://localhost:8080/realms/folio')).toBe(true);
    expect(allowed('http://idp.localhost')).toBe(true);
  });

  it('allows hosts and ranges the operator listed in FOLIO_OUTBOUND_ALLOW, and nothing else', () => {
    expect(allowed('http://keycloak:8080/realms/folio')).toBe(false);
    expect(allowed('http://keycloak:8080/realms/folio', 'minio, keycloak')).toBe(true);
    expect(allowed('http://10.1.2.3/realms/folio', '10.0.0.0/8')).toBe(true);
    expect(allowed('http://192.168.1.3/', '10.0.0.0/8,fd00::/8')).toBe(false);
    expect(allowed('http://idp.example.com/')).toBe(false);
    // "localhost" inside a longer public name is not loopback.
    expect(allowed('http://localhost.example.com/')).toBe(false);
  });

  it('is only about http: an https issuer needs no exception', () => {
    expect(allowed('https://127.0.0.1')).toBe(false);
  });
});
