import { hydrate } from 'preact';
import { pageNamed, pageTree } from '../pages.tsx';
import { PAGE_STATE_ID } from '../page-state.ts';

// The server rendered the page and wrote what it rendered it with next to it: the same tree,
// hydrated, makes it interactive without painting it again.
const state = JSON.parse(document.getElementById(PAGE_STATE_ID)?.textContent ?? '{}');
const page = pageNamed(state.page ?? '');
if (page) hydrate(pageTree(page, state.props ?? {}), document.getElementById('app')!);
