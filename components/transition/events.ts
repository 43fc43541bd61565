/**
 * Window events of the transition component (docs/transition-ui.md). A keyboard
 * shortcut never acts: it asks the component showing that subject to open its preview.
 */

/** Fired by keyboard shortcuts: `{ id, action }`; the component showing that subject opens the preview. */
export const TRANSITION_EVENT = 'memtrust:transition';
/**
 * Fired after a transition succeeded: `{ id, message, batch, files }`. The inbox shows it with
 * the batch's Undo and moves to the next row (the pane that applied it is gone by then).
 */
export const TRANSITION_DONE_EVENT = 'memtrust:transition-done';
