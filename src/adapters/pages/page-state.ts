/** The id of the `<script type="application/json">` block that carries a page's name and props. */
export const PAGE_STATE_ID = 'page-state';

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` as \u escapes, so no
 * owner or visitor text can close the element (`</script>`) or open a comment (`<!--`) in it;
 * U+2028 and U+2029 too, for any older parser. JSON.parse reads the escapes back unchanged.
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
