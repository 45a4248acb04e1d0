/** True for an IANA time zone name this runtime knows (aliases included). */
export function isValidTimeZone(name: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}
