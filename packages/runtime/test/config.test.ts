import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '@careerbot/runtime';

const CANARY_KEY = 'sk-canary-CONFIG-0123456789';
const TOKEN = `cbt_${'ab'.repeat(32)}`;
const GOOD = { CAREERBOT_URL: 'https://careerbot.example/', CAREERBOT_TOKEN: TOKEN, LLM_PROVIDER: 'openai', LLM_API_KEY: CANARY_KEY };

describe('parseRuntimeConfig', () => {
  it('reads a good environment, with defaults', () => {
    const parsed = parseRuntimeConfig(GOOD);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config).toMatchObject({
      CAREERBOT_URL: 'https://careerbot.example',
      PORT: 8787,
      MESSAGES_PER_MINUTE_PER_VISITOR: 10,
      MESSAGES_PER_DAY: 1000,
      TRUST_PROXY: 0,
      ALLOWED_ORIGINS: [],
    });
  });

  it('names every bad variable in one message, and never a value', () => {
    const parsed = parseRuntimeConfig({
      CAREERBOT_URL: 'not a url',
      CAREERBOT_TOKEN: `cbt_${CANARY_KEY}`,
      LLM_PROVIDER: 'mistral',
      LLM_API_KEY: CANARY_KEY,
      ALLOWED_ORIGINS: 'https://ok.example,nonsense',
      MESSAGES_PER_MINUTE_PER_VISITOR: '0',
      MESSAGES_PER_DAY: 'many',
      TRUST_PROXY: 'maybe',
      PORT: '70000',
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    for (const name of ['CAREERBOT_URL', 'CAREERBOT_TOKEN', 'LLM_PROVIDER', 'ALLOWED_ORIGINS', 'MESSAGES_PER_MINUTE_PER_VISITOR', 'MESSAGES_PER_DAY', 'TRUST_PROXY', 'PORT']) {
      expect(parsed.message).toContain(`${name}:`);
    }
    expect(parsed.message).not.toContain(CANARY_KEY);
  });

  it('asks for what is missing, and for the endpoint and deployment of Azure', () => {
    const missing = parseRuntimeConfig({});
    expect(missing.ok).toBe(false);
    if (!missing.ok) for (const name of ['CAREERBOT_URL', 'CAREERBOT_TOKEN', 'LLM_PROVIDER', 'LLM_API_KEY']) expect(missing.message).toContain(`${name}: `);
    const azure = parseRuntimeConfig({ ...GOOD, LLM_PROVIDER: 'azure' });
    expect(azure.ok).toBe(false);
    if (!azure.ok) {
      expect(azure.message).toContain('AZURE_OPENAI_ENDPOINT: is required');
      expect(azure.message).toContain('LLM_MODEL: is required');
    }
  });
});

describe('the careerbot-runtime command', () => {
  it('stops at start-up with the one message, exit code 1, and no secret in it', () => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    const run = spawnSync(process.execPath, [cli], {
      env: { PATH: process.env.PATH, CAREERBOT_TOKEN: TOKEN, LLM_API_KEY: CANARY_KEY, LLM_PROVIDER: 'openai', PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('CAREERBOT_URL: is required');
    expect(run.stderr).toContain('PORT: must be a number');
    expect(run.stderr + run.stdout).not.toContain(CANARY_KEY);
    expect(run.stderr + run.stdout).not.toContain(TOKEN);
  });
});
