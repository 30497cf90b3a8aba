import { describe, expect, it } from 'vitest';
import { mount, type MountOptions } from '../src/self-hosted.ts';

// With runtimeUrl the runtime holds the context, the model call and the token: a page that
// still passes one of them would be putting it where a visitor can read it.
describe('mount with runtimeUrl', () => {
  it.each([
    ['context', { context: 'Ada wrote the first published algorithm.' }],
    ['sendMessage', { sendMessage: async () => 'hi' }],
    ['dashboard', { dashboard: { token: 'cbt_0000000000000000000000000000000000000000000000000000000000000000' } }],
  ])('refuses %s beside runtimeUrl, before it touches the page', (_name, extra) => {
    const options = { runtimeUrl: 'https://runtime.example.com', ...extra } as unknown as MountOptions;
    expect(() => mount(null, options)).toThrow(new TypeError('careerbot mount: with runtimeUrl, leave out context, sendMessage and dashboard: your runtime holds them'));
  });
});
