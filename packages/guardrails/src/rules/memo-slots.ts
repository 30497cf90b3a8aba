/**
 * Where a scan keeps the answers of each memoised predicate of the rules (see memoized in scan.ts):
 * one slot per predicate, named after it.
 */
export const enum MemoSlot {
  GivenToYou,
  SetupReference,
  Secret,
  AddressedRequest,
  Overridden,
  OwnPrompt,
  YourPrompt,
  SelfInstructed,
  ShowsAPart,
  OwnedLimit,
  ModelLimit,
  AnyLimit,
  AddressedActivation,
  Persistence,
  RoleMarker,
  IntroducedPersona,
  StartedWith,
  EarlierInstruction,
  OverrideTarget,
}
