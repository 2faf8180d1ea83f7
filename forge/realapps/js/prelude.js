// Shared by load.js and oracle.js: Marionette's callback, Local Folders, folder loading and lookup.
const done = arguments[arguments.length - 1];
const {MailServices} = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
const {setTimeout} = ChromeUtils.importESModule("resource://gre/modules/Timer.sys.mjs");
const root = MailServices.accounts.localFoldersServer.rootFolder;
const relPath = f => decodeURIComponent(f.URI.slice(root.URI.length + 1));
function loaded(f) {  // parse the folder's mbox (or check its summary) and wait for FolderLoaded
  return new Promise((res, rej) => {
    const l = {onFolderEvent(folder, ev) {
      if (folder == f && ev == "FolderLoaded") { MailServices.mailSession.RemoveFolderListener(l); res(); } }};
    MailServices.mailSession.AddFolderListener(l, Ci.nsIFolderListener.event);
    setTimeout(() => { MailServices.mailSession.RemoveFolderListener(l); rej(new Error("not loaded in 10 s")); },
               10000);
    f.updateFolder(null);
  });
}
function folderAt(path) {
  let f = root;
  for (const part of path.split("/").filter(p => p)) {
    const child = f.subFolders.find(c => c.name == part);
    if (!child) throw new Error(`no folder ${JSON.stringify(path)} (missing ${JSON.stringify(part)})`);
    f = child;
  }
  return f;
}
