import { describe, expect, it } from 'vitest';
import { makeGetBotAvatar, makeGetBotConfig } from '../../src/application/get-bot-config.ts';
import { runtimeFixture } from '../support/runtime-fixture.ts';

describe('bot config view', () => {
  it('shows exactly the widget fields, the avatar path and the defaults', async () => {
    const f = await runtimeFixture({ headline: null });
    expect(await makeGetBotConfig()(f.bot)).toEqual({
      id: f.bot.id,
      name: 'Ada Lovelace',
      headline: null,
      personality: 'professional',
      themeColor: '#4f46e5',
      suggestedQuestions: ['What did Ada build?'],
      loadingMessages: ['Thinking…'],
      isActive: true,
      deploymentMode: 'managed',
      photoHash: null,
    });
  });

  it('is served for an inactive bot, showing isActive false and the current settings', async () => {
    const f = await runtimeFixture();
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false, themeColor: '#00aa00', deploymentMode: 'self_hosted' }, f.clock.now());
    expect(await makeGetBotConfig()(await f.currentBot())).toMatchObject({
      isActive: false,
      themeColor: '#00aa00',
      deploymentMode: 'self_hosted',
    });
  });
});

describe('bot avatar', () => {
  it('draws an active bot, and nothing for an unknown id', async () => {
    const f = await runtimeFixture();
    const getAvatar = makeGetBotAvatar({ bots: f.repos.bots });
    const found = await getAvatar(f.bot.id);
    expect(found.ok && found.value.svg).toContain('>AL</text>');
    expect(await getAvatar(crypto.randomUUID())).toEqual({ ok: false, error: { type: 'not_found' } });
  });

  it('draws nothing for a switched-off bot, whose public view is not found either', async () => {
    const f = await runtimeFixture();
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false }, f.clock.now());
    expect(await makeGetBotAvatar({ bots: f.repos.bots })(f.bot.id)).toEqual({ ok: false, error: { type: 'not_found' } });
  });
});
