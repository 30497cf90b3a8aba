/** The self-hosted Career Bot widget, as an ES module: `import { mount } from '@careerbot/widget'`. */
import { mount, rememberScriptOrigin } from './self-hosted.ts';

rememberScriptOrigin(import.meta.url);

export { buildSystemPrompt, mount, type MountOptions, type Personality, type RuntimeOptions, type SelfHostedOptions } from './self-hosted.ts';
export type { MountedWidget, Turn } from './chat-widget.ts';
export default mount;
