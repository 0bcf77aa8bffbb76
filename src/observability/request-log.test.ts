import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-log.js';

describe('redactUrl', () => {
  it('hides the value of every credential parameter and keeps the rest as sent', () => {
    expect(redactUrl('/api/agent/connect?token=snt_abc')).toBe(
      '/api/agent/connect?token=[REDACTED]',
    );
    expect(redactUrl('/cb?code=c1&state=s%20x&ACCESS_TOKEN=a&x=1')).toBe(
      '/cb?code=[REDACTED]&state=s%20x&ACCESS_TOKEN=[REDACTED]&x=1',
    );
    expect(redactUrl('/p?invite_token=i&client_secret=s&db_password=p&api_key=k')).toBe(
      '/p?invite_token=[REDACTED]&client_secret=[REDACTED]&db_password=[REDACTED]&api_key=[REDACTED]',
    );
  });

  it('reads encoded names, and leaves paths and bare flags alone', () => {
    expect(redactUrl('/p?%74oken=t&to%ZZken=u')).toBe('/p?%74oken=[REDACTED]&to%ZZken=u');
    expect(redactUrl('/token/abc')).toBe('/token/abc');
    expect(redactUrl('/p?token&q=1')).toBe('/p?token&q=1');
  });
});
