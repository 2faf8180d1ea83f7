// After prelude.js: carry out the oracle's tb.* ops through Thunderbird's own APIs.
const [ops] = arguments;
const ATTRIB = {"subject": "Subject", "from": "Sender", "to": "To", "cc": "CC", "to or cc": "ToOrCC",
                "body": "Body", "all addresses": "AllAddresses"};
const OP = {"contains": "Contains", "doesn't contain": "DoesntContain", "is": "Is", "isn't": "Isnt",
            "begins with": "BeginsWith", "ends with": "EndsWith"};
const ACTION = {"Move to folder": "MoveToFolder", "Copy to folder": "CopyToFolder", "Mark read": "MarkRead",
                "Mark unread": "MarkUnread", "Mark flagged": "MarkFlagged", "Delete": "Delete", "AddTag": "AddTag",
                "Change priority": "ChangePriority", "Stop execution": "StopExecution", "Forward": "Forward"};
const PRIORITY = {"Lowest": 2, "Low": 3, "Normal": 4, "High": 5, "Highest": 6};
function pick(table, key, what) {
  if (!(key in table)) throw new Error(`${what} ${JSON.stringify(key)} is not supported; known: ${Object.keys(table)}`);
  return table[key];
}
function matches(h, field, value) {  // preparers.thunderbird.matches, on Thunderbird's own headers
  const v = value.toLowerCase();
  if (field == "from") return h.mime2DecodedAuthor.toLowerCase().includes(v);
  if (field == "subject") return ((h.flags & 0x10 ? "Re: " : "") + h.mime2DecodedSubject).toLowerCase().includes(v);
  if (field == "before") return h.date / 1000 < Date.parse(value + "T00:00:00Z");
  if (field == "message_id") return h.messageId == value;
  throw new Error(`criterion field ${JSON.stringify(field)} is not supported`);
}
async function selected(a, path) {  // the live messages of folder `path` matching a.field/a.value, first a.limit
  const f = folderAt(path);
  await loaded(f);
  const hdrs = [...f.messages].filter(h => !(h.flags & 0x8) && matches(h, a.field, a.value))
    .sort((x, y) => x.messageKey - y.messageKey);
  if (!hdrs.length) throw new Error(`folder ${path}: no live message matches ${a.field}=${JSON.stringify(a.value)}`);
  return [f, a.limit ? hdrs.slice(0, a.limit) : hdrs];
}
const HANDLERS = {
  create_folder(a) {
    let f = root;
    for (const part of a.folder.split("/").filter(p => p)) {
      if (!f.subFolders.find(c => c.name == part)) f.createSubfolder(part, null);
      f = f.subFolders.find(c => c.name == part);
      if (!f) throw new Error(`createSubfolder(${JSON.stringify(part)}) made no folder`);
    }
  },
  async move_messages(a) {
    const [src, hdrs] = await selected(a, a.source);
    const dest = folderAt(a.target);
    await new Promise((res, rej) => {
      MailServices.copy.copyMessages(src, hdrs, dest, !a.copy, {
        QueryInterface: ChromeUtils.generateQI(["nsIMsgCopyServiceListener"]),
        onStartCopy() {}, onProgress() {}, setMessageKey() {}, getMessageId() { return null; },
        onStopCopy(status) { status == 0 ? res() : rej(new Error(`copyMessages status 0x${status.toString(16)}`)); },
      }, null, false);
    });
  },
  add_filter(a) {
    const list = MailServices.accounts.localFoldersServer.getFilterList(null);
    const f = list.createFilter(a.name);
    f.enabled = a.enabled;
    f.filterType = a.type;
    const conditions = a.match == "ALL" || !a.conditions.length ? [null] : a.conditions;
    for (const c of conditions) {
      const term = f.createTerm();
      if (c === null) { term.matchAll = true; } else {
        term.attrib = Ci.nsMsgSearchAttrib[pick(ATTRIB, c[0], "condition field")];
        term.op = Ci.nsMsgSearchOp[pick(OP, c[1], "condition operator")];
        const value = term.value;
        value.attrib = term.attrib;
        value.str = c[2];
        term.value = value;
      }
      term.booleanAnd = a.match != "OR";
      f.appendTerm(term);
    }
    for (const [name, value] of a.actions) {
      const action = f.createAction();
      action.type = Ci.nsMsgFilterAction[pick(ACTION, name, "filter action")];
      if (name == "Move to folder" || name == "Copy to folder") action.targetFolderUri = folderAt(value).URI;
      else if (name == "Change priority") action.priority = pick(PRIORITY, value, "priority");
      else if (value) action.strValue = value;
      f.appendAction(action);
    }
    list.insertFilterAt(list.filterCount, f);
    list.saveToDefaultFile();
  },
  add_contact(a) {
    const book = MailServices.ab.getDirectory("jsaddrbook://" + a.book);
    if (!book) throw new Error(`no address book ${a.book}`);
    const card = Cc["@mozilla.org/addressbook/cardproperty;1"].createInstance(Ci.nsIAbCard);
    card.displayName = a.display_name;
    card.primaryEmail = a.email;
    if (a.first) card.firstName = a.first;
    if (a.last) card.lastName = a.last;
    book.addCard(card);
  },
  set_pref(a) {
    if (typeof a.value == "boolean") Services.prefs.setBoolPref(a.name, a.value);
    else if (Number.isInteger(a.value)) Services.prefs.setIntPref(a.name, a.value);
    else Services.prefs.setStringPref(a.name, String(a.value));
    Services.prefs.savePrefFile(null);
  },
  async mark_read(a) {
    const [f, hdrs] = await selected(a, a.folder);
    f.markMessagesRead(hdrs, a.value);
  },
  async save_attachment(a) {  // the GUI's "Save As" ends in AttachmentInfo.saveToFile: Thunderbird decodes the part
    const f = folderAt(a.folder);
    await loaded(f);
    const hdr = [...f.messages].find(h => h.messageId == a.message_id && !(h.flags & 0x8));
    if (!hdr) throw new Error(`folder ${a.folder}: no live message ${a.message_id}`);
    const {MsgHdrToMimeMessage} = ChromeUtils.importESModule("resource:///modules/gloda/MimeMessage.sys.mjs");
    const {AttachmentInfo} = ChromeUtils.importESModule("resource:///modules/AttachmentInfo.sys.mjs");
    const mime = await new Promise((res, rej) => MsgHdrToMimeMessage(
      hdr, null, (h, m) => m ? res(m) : rej(new Error("message not parsed")), true, {saneBodySize: true}));
    const att = mime.allUserAttachments.find(x => x.name == a.filename);
    if (!att) throw new Error(`message ${a.message_id} has no attachment ${JSON.stringify(a.filename)}`);
    await IOUtils.makeDirectory(PathUtils.parent(a.dest), {createAncestors: true});
    await new AttachmentInfo({contentType: att.contentType, url: att.url, name: att.name,
                              uri: f.getUriForMsg(hdr), isExternalAttachment: false, message: hdr}).saveToFile(a.dest);
  },
  async mark_flagged(a) {
    const [f, hdrs] = await selected(a, a.folder);
    f.markMessagesFlagged(hdrs, a.value);
  },
  async tag_messages(a) {  // the Tag menu / tag keys: Thunderbird writes the key into X-Mozilla-Keys' padding
    const [f, hdrs] = await selected(a, a.folder);
    f.addKeywordsToMessages(hdrs, a.tag);
  },
};
(async () => {
  const notes = [];
  for (const [i, op] of ops.entries()) {
    try { await HANDLERS[op.kind](op); notes.push(`${op.kind}: done by Thunderbird`); }
    catch (e) { return {error: `ops[${i}] ${op.kind}: ${e.message || e}`}; }
  }
  return {notes};
})().then(done, e => done({error: String(e)}));
