/** Reading fields of JSON from the platform, which the widgets trust no further than its shape. */

/** The value of `value`'s own property `key`, or undefined: never one inherited from a prototype. */
export const own = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;

/** The own property `key` when it is a string, else null. */
export const text = (value: unknown, key: string): string | null => {
  const field = own(value, key);
  return typeof field === 'string' ? field : null;
};
