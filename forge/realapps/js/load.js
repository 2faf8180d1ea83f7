// After prelude.js: list what Thunderbird loaded from the profile (folders, messages, filters, contacts).
(async () => {
  const out = {folders: {}, filters: {}, books: {}, errors: []};
  for (const f of root.descendants) {
    const path = relPath(f);
    try { await loaded(f); } catch (e) { out.errors.push(`folder ${path}: ${e}`); }
    const info = {total: 0, unread: 0, flagged: 0, subjects: []};
    try {
      for (const h of f.messages) {
        info.total++;
        if (!h.isRead) info.unread++;
        if (h.isFlagged) info.flagged++;
        info.subjects.push((h.flags & 0x10 ? "Re: " : "") + h.mime2DecodedSubject);
      }
    } catch (e) { out.errors.push(`folder ${path}: messages not readable: ${e}`); }
    out.folders[path] = info;
  }
  for (const server of MailServices.accounts.allServers) {
    const key = server.localPath.leafName;
    const rules = server.localPath.clone();
    rules.append("msgFilterRules.dat");
    // a server without a rules file has no filters to compare, and asking for its list would make Thunderbird
    // write an empty file at quit: the oracle that may run next in this session must write only its own files
    if (!rules.exists()) continue;
    let list;
    try { list = server.getFilterList(null); } catch (e) {
      out.errors.push(`filters of ${key}: ${e.name || e.result || e}`); continue; }
    const filters = [];
    for (let i = 0; i < list.filterCount; i++) {
      const f = list.getFilterAt(i);
      if (f.unparseable) out.errors.push(`filters of ${key}: filter ${JSON.stringify(f.filterName)} is unparseable`);
      const terms = [];
      for (const t of f.searchTerms) terms.push(t.matchAll ? "ALL" : (t.booleanAnd ? "AND " : "OR ") + t.termAsString);
      const actions = [];
      for (const a of f.sortedActionList) {
        const folderAction = a.type == Ci.nsMsgFilterAction.MoveToFolder || a.type == Ci.nsMsgFilterAction.CopyToFolder;
        let value = "";
        if (folderAction) value = a.targetFolderUri;
        else if (a.type == Ci.nsMsgFilterAction.ChangePriority) value = String(a.priority);
        else if (a.type == Ci.nsMsgFilterAction.JunkScore) value = String(a.junkScore);
        else { try { value = a.strValue || ""; } catch (e) {} }
        if (folderAction && !MailServices.folderLookup.getFolderForURL(value))
          out.errors.push(`filters of ${key}: filter ${JSON.stringify(f.filterName)} targets missing folder ${value}`);
        actions.push([a.type, value]);
      }
      filters.push({name: f.filterName, enabled: f.enabled, type: f.filterType, terms, actions});
    }
    if (filters.length) out.filters[key] = filters;
  }
  // listing the address books makes Thunderbird give them ids in prefs.js (ldap_2.servers.*.uid); the oracle that
  // may run next in this session must write only its own changes, so prefs the listing adds are dropped again
  const AB = "ldap_2.servers.";
  const had = new Set(Services.prefs.getChildList(AB).filter(n => Services.prefs.prefHasUserValue(n)));
  for (const d of MailServices.ab.directories) {
    const cards = [];
    try {
      for (const c of d.childCards) if (!c.isMailList) cards.push([c.displayName, c.primaryEmail]);
    } catch (e) { out.errors.push(`address book ${d.fileName}: ${e}`); }
    out.books[d.fileName] = cards;
  }
  for (const name of Services.prefs.getChildList(AB))
    if (!had.has(name) && Services.prefs.prefHasUserValue(name)) Services.prefs.clearUserPref(name);
  return out;
})().then(done, e => done({error: String(e)}));
