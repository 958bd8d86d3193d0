/** Offsets of the time-zone abbreviations a policy may use after a time (`15:00:00 EST`). */
const ZONES: Readonly<Record<string, string>> = {
  UTC: 'Z',
  GMT: 'Z',
  Z: 'Z',
  EST: '-05:00',
  EDT: '-04:00',
  CST: '-06:00',
  CDT: '-05:00',
  MST: '-07:00',
  MDT: '-06:00',
  PST: '-08:00',
  PDT: '-07:00',
};

const STATED =
  /\b(?:current|today's)\s+(?:date\s+and\s+)?time\s+is\s+(\d{4}-\d{2}-\d{2})[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|[+-]\d{2}:?\d{2}|[A-Z]{1,4})?\b/i;

/**
 * The fixed "now" a domain's text states ("The current time is 2024-05-15 15:00:00 EST.", as
 * tau2-bench's airline policy does), as an ISO-8601 date and time with its offset for
 * database.yaml's `now:`. Undefined when the text states none, or states it without a zone
 * PolicyLab can place (a time with no offset is not a moment).
 */
export function statedNow(text: string): { now: string; stated: string } | undefined {
  const match = STATED.exec(text);
  if (!match) return undefined;
  const [stated, date, hour, minute, second, zone] = match;
  if (zone === undefined) return undefined;
  const offset = /^[+-]/.test(zone)
    ? zone.length === 5
      ? `${zone.slice(0, 3)}:${zone.slice(3)}`
      : zone
    : ZONES[zone.toUpperCase()];
  if (offset === undefined || Number(hour) > 23) return undefined;
  const time = `${hour?.padStart(2, '0')}:${minute}:${second ?? '00'}`;
  return { now: `${date}T${time}${offset}`, stated: stated.trim() };
}
