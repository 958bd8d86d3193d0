/**
 * Copies text to the clipboard; false when the browser refuses (no permission, not a secure page),
 * so the caller shows the text for the person to copy by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
