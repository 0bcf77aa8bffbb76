import { describe, expect, it } from 'vitest';
import { isServerPath, safeRedirect } from './redirect.js';

describe('safeRedirect: only a path inside the app', () => {
  it('keeps a path of the app with its query and fragment', () => {
    expect(safeRedirect('/launch')).toBe('/launch');
    expect(safeRedirect('/launch/lists/1?view=board&q=a%20b#top')).toBe(
      '/launch/lists/1?view=board&q=a%20b#top',
    );
    expect(safeRedirect('/oauth/authorize?client_id=x&state=y')).toBe(
      '/oauth/authorize?client_id=x&state=y',
    );
  });

  it('goes to the workspaces without a target', () => {
    expect(safeRedirect(undefined)).toBe('/');
    expect(safeRedirect('')).toBe('/');
  });

  it('refuses every way out of the app', () => {
    for (const target of [
      'https://evil.example/',
      'http://evil.example',
      'javascript:alert(1)',
      'data:text/html,x',
      '//evil.example/path',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'evil.example',
      ' /launch',
      '%2F%2Fevil.example',
    ]) {
      expect(safeRedirect(target), JSON.stringify(target)).toBe('/');
    }
  });

  it('keeps encoded slashes encoded (a path, never a host)', () => {
    expect(safeRedirect('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });
});

describe('safeRedirect: a private service’s sign-in step on the server', () => {
  const id = '0b6f3a52-3c1e-4d8a-9f27-5e4b1c2d3a4f';
  const access = `/api/services/${id}/access?return=${encodeURIComponent(
    `http://svc-${id}.svc.localhost:8080/report?month=11`,
  )}&state=${'S'.repeat(32)}`;

  it('keeps /api/services/{uuid}/access with its query, exactly, to open by a page load', () => {
    expect(safeRedirect(access)).toBe(access);
    expect(safeRedirect(`/api/services/${id.toUpperCase()}/access?state=x`)).toBe(
      `/api/services/${id.toUpperCase()}/access?state=x`,
    );
    expect(isServerPath(safeRedirect(access))).toBe(true);
  });

  it('opens the app’s own paths in the router', () => {
    expect(isServerPath(safeRedirect('/launch/lists/1?view=board'))).toBe(false);
    expect(isServerPath(safeRedirect(undefined))).toBe(false);
    // A workspace whose address merely looks like the API's stays in the app.
    expect(isServerPath(safeRedirect('/apis/services'))).toBe(false);
  });

  it('refuses every other server path and every disguise of this one', () => {
    for (const target of [
      '/api/orgs',
      '/api',
      '/api/',
      '/api/auth/logout',
      '/api/services/not-a-uuid/access?state=x',
      `/api/services/${id}/access`,
      `/api/services/${id}/access?`,
      `/api/services/${id}/access/extra?state=x`,
      `/api/services/${id}/accessed?state=x`,
      `/api/services/${id}/access?state=x#fragment`,
      `/api/services/${id}/access/../../../orgs?x=1`,
      `/api/services/${id}/access/%2e%2e/%2e%2e?x=1`,
      `/api/services/${id}/%2e%2e/access?x=1`,
      `/launch/../api/services/${id}/access?x=1`,
      `/api/services/${id}/./access?x=1`,
      `/api/services/${id}%2Faccess?x=1`,
      `/api/services/${id}/access?x=<script>`,
      `//evil.example/api/services/${id}/access?x=1`,
      `/\\evil.example/api/services/${id}/access?x=1`,
      `https://evil.example/api/services/${id}/access?x=1`,
      `http://app.invalid/api/services/${id}/access?x=1`,
      `/api/services/${id}/access?x=1\n`,
      `%2Fapi%2Fservices%2F${id}%2Faccess%3Fx%3D1`,
    ]) {
      expect(safeRedirect(target), JSON.stringify(target)).toBe('/');
    }
  });
});
