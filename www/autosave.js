// Autosave of the scenario text: every edit is kept in localStorage, so a reload, a crashed
// or restarted simulator never loses what the user typed. Storage failures (private mode, quota)
// are ignored: the editor itself still holds the text.

const KEY = "kubeplay.draft.v1";
/** Largest draft stored (the share-link cap is the same). */
export const MAX_DRAFT_CHARS = 256 * 1024;

export function saveDraft(text) {
  try {
    if (typeof text === "string" && text.length <= MAX_DRAFT_CHARS) localStorage.setItem(KEY, text);
  } catch {
    /* storage unavailable */
  }
}

export function loadDraft() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Saves the editor's text after each edit (debounced) and when the page is hidden. */
export function autosave(editor, delay = 250) {
  let timer = 0;
  editor.area.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => saveDraft(editor.value), delay);
  });
  window.addEventListener("pagehide", () => {
    if (timer) saveDraft(editor.value);
  });
}
