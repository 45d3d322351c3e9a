// The room page's "What happened" list survives a reload: the events this tab has
// seen are kept in sessionStorage with the last version seen, and the next page
// load shows them again and asks the server for the events it missed meanwhile
// (hello's `since`; they arrive in welcome.missed).

const LIMIT = 30; // as many as the list shows

export class EventLog {
  constructor(room) {
    this.key = `setgame.log.${room}`;
    this.data = this.load();
    this.welcomed = false;
  }

  load() {
    try {
      const data = JSON.parse(sessionStorage.getItem(this.key) || "null");
      if (data && Array.isArray(data.events) && Number.isInteger(data.version)) return data;
    } catch {
      /* unreadable or no storage: start empty */
    }
    return { version: null, events: [] };
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify(this.data));
    } catch {
      /* storage full or disabled: the list lasts as long as the page */
    }
  }

  version() {
    return this.data.version;
  }

  events() {
    return this.data.events;
  }

  add(events, version) {
    if (!events.length) return;
    this.data.events = [...this.data.events, ...events].slice(-LIMIT);
    this.seen(version);
  }

  seen(version) {
    if (!Number.isInteger(version)) return;
    this.data.version = version;
    this.save();
  }

  // On a welcome: true the first time (the list is to be rebuilt from what was kept).
  // A room whose versions went back (a new server) starts a fresh list.
  resume(state) {
    if (this.welcomed) return false;
    this.welcomed = true;
    if (this.data.version !== null && state.version < this.data.version) {
      this.data = { version: null, events: [] };
      this.save();
    }
    return this.data.events.length > 0;
  }
}
