/**
 * The Core's vocabulary: the world record, the enumerations with their fixed numeric values, the
 * name limits and the update statuses. The numeric values are part of save format v1 (one byte
 * each at payload offsets 30 and 31) and never change meaning.
 */
import type { U64 } from "./u64";

/** What the pet is doing. Values are stored in the payload; never renumber. */
export const Activity = {
  Idle: 0,
  Wandering: 1,
  Eating: 2,
  Playing: 3,
  Sleeping: 4,
} as const;
/** Lower-case names by value, for display and `pet-save decode --json` (`activityName`). */
export const ACTIVITY_NAMES = ["idle", "wandering", "eating", "playing", "sleeping"];
/** How many activities there are (ACTIVITY_NAMES.length, test/core-world-validation-odd-fields.test.ts holds them equal): a number the build writes in where it is used. */
export const ACTIVITY_COUNT = 5;

/** The pet's face. Values are stored in the payload; never renumber. */
export const Expression = {
  Neutral: 0,
  Happy: 1,
  Sleepy: 2,
  Surprised: 3,
  Grumpy: 4,
  Curious: 5,
} as const;
/** Lower-case names by value (`expressionName`). */
export const EXPRESSION_NAMES = ["neutral", "happy", "sleepy", "surprised", "grumpy", "curious"];
/** How many expressions there are (EXPRESSION_NAMES.length). */
export const EXPRESSION_COUNT = 6;

/** A name is 1 to 31 bytes with no zero byte (the payload keeps 31 bytes for it). */
export const NAME_MIN_BYTES = 1;
export const NAME_MAX_BYTES = 31;

/** Things that happen to the pet from outside, besides time passing. */
export type PetEvent = "interact" | "wake";
export const PET_EVENTS: readonly PetEvent[] = ["interact", "wake"];

/**
 * One world, holding one pet. Everything here is saved; nothing else is. All clocks are world-clock
 * milliseconds (the sum of the deltas the caller supplied), never a wall clock.
 */
export interface World {
  /** 1 to 31 bytes, none zero. Usually UTF-8, but any such bytes are kept exactly. */
  name: Uint8Array;
  activity: number;
  expression: number;
  /** World clock when the current activity began. */
  activitySince: U64;
  /** World clock when the current expression began. */
  expressionSince: U64;
  /** The world clock: total milliseconds the world has been advanced by. */
  elapsed: U64;
  /** Number of accepted updates. */
  updateCount: U64;
}

/**
 * Why a world is not valid, or "ok". The names match the codec's statuses so that a payload that
 * decodes into a bad world, and a bad world handed to the encoder, report the same thing.
 */
export type WorldStatus = "ok" | "unknown-activity" | "unknown-expression" | "bad-name" | "invalid-world";

/** The result of `updateWorld`. Anything but "ok" left the world exactly as it was. */
export type UpdateStatus =
  | "ok"
  /** deltaMs is not a non-negative integer no larger than 2^53 - 1. */
  | "bad-delta"
  /** The event is not one of PET_EVENTS. */
  | "bad-event"
  /** Adding the delta would pass the world clock's 2^64 - 1. */
  | "clock-overflow"
  /** The update count is already 2^64 - 1. */
  | "count-overflow"
  /** The world handed in fails validateWorld. */
  | "invalid-world";
