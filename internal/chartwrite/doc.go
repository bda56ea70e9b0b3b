// Package chartwrite writes a generated file tree (relative paths and their
// bytes) into a directory without ever destroying a file it did not write.
// `etcdshapes gen chart` uses it for the charts chartgen generates; it knows
// nothing of Helm beyond one rule: a subdirectory with its own Chart.yaml is
// another chart.
//
// # The manifest
//
// Write records what it wrote in the directory's manifest, ManifestName
// (".etcdshapes-generated"): one line per file, its SHA-256 and its path,
// in the format of sha256sum, so `sha256sum -c .etcdshapes-generated` in the
// directory checks it. A file is Write's own when the manifest lists it and
// its content still has the listed hash. A later Write:
//
//   - writes a file that does not exist;
//   - leaves a file whose content is already the new content ("unchanged":
//     a second identical run changes nothing, not even the manifest);
//   - replaces a file that is its own;
//   - removes a file that is its own and is no longer generated ("stale");
//     a stale entry whose file is gone is forgotten;
//   - refuses every other existing file: one the manifest does not list
//     (hand-written, or written before manifests existed) and one edited
//     since it was written (its hash no longer matches). Options.Force
//     replaces or removes those too, but only regular files.
//
// Write never reads the directory beyond those paths: it does not walk the
// tree, so no other file is read, replaced or removed.
//
// # One command per directory
//
// The manifest also records which command's files it lists, Options.Owner
// ("# owner: etcdshapes render etcd tenant-root/etcd", "# owner: etcdshapes
// gen chart --caller etcd"). Each command's files are stale to any other
// (a chart's files are no render's objects, one stack's objects no other
// stack's), so a Write whose owner is not the recorded one would remove
// them all, and the other command, run again, would remove its files in
// turn. Such a Write is refused, even with Force, with an error naming
// both commands, before anything changes. A manifest from before owners
// were recorded is adopted unless Options.Adopts says its paths are
// another command's; the next Write records its owner.
//
// A partial Write (Options.Partial: a filtered render, which writes some
// of a tree's files) removes nothing: a file the manifest lists and the
// Write does not carry stays, and stays listed with the hash it was
// written with, so that the next complete Write still replaces or removes
// it. Only a complete Write removes stale files.
//
// # One Write at a time
//
// Two Writes into one directory at once (two `gen chart` runs, two
// `render --output-dir`, a parallel build) would each read the same
// manifest and write their files, and the manifest written last would not
// list the files written last: every later run would refuse them. So Write
// holds an exclusive flock(2) on a lock file in the directory, LockName,
// from before it reads the manifest until after it wrote it. The file
// exists only while a Write holds it (the holder removes it before
// releasing it; a waiter checks that the file it locked is still the one
// there). A Write waits at most Options.LockWait (DefaultLockWait) for
// another to finish, then returns an error naming the lock file and
// changes nothing: a hung or stopped holder never hangs the next run. The
// lock file gets the rules of every other file: a symbolic link, a FIFO,
// a device, a directory or a file with content at LockName is refused
// without being opened, even with Force (an empty file, left by a run that
// was killed, is taken). Platforms without flock (Windows) take no lock.
//
// # What is never touched, even with Force
//
//   - A symbolic link anywhere at or under dir: a file, a parent directory
//     (templates -> /elsewhere) or the manifest. dir itself must not be a
//     symbolic link either (pass the directory it points to): the tree Write
//     changes is exactly the one named. Components above dir are the
//     caller's path and are resolved as usual.
//   - Anything but a regular file where a file goes: a FIFO, a socket, a
//     device or a directory is refused from its Lstat, without being opened
//     (opening a FIFO blocks). Files are opened with O_NONBLOCK and checked
//     again after opening (same inode, still regular), so one swapped in
//     between cannot hang or redirect the read.
//   - Another chart: a subdirectory holding its own Chart.yaml that is not
//     one of the generated files, or its own manifest. Nothing in it is read,
//     written or removed.
//
// A stale manifest entry that now names such a thing (or sits below one) is
// left in place and forgotten, and reported in Result.Left.
//
// # All or nothing, and bounded
//
// Write checks every path before it changes anything: when it refuses any
// file it returns a *RefusedError naming each one (each a *invalid.Error:
// field "out", the path, the rule and how to proceed) and has written
// nothing. A directory or manifest it cannot use, and a file list it cannot
// write (a path that is not clean and relative, a duplicate, a reserved
// name), are a single *invalid.Error, also before any change.
// Options.Approve, when set, sees what is about to be replaced and removed,
// with its content, and may still stop it.
//
// Then the set of files changes as a whole. Write first writes a journal
// (".etcdshapes-tmp-journal") listing the temporary files it will stage and
// the directories it will create, then stages every new file, the
// manifest included, as a complete, synced temporary file in its own
// directory (".etcdshapes-tmp-<run>-<n>"). Its commit point is the journal
// rewritten (atomically, by a rename) as "commit": it then renames each
// temporary file over its target (a reader never sees half a file, and a
// hard link elsewhere keeps its content), removes the stale files, and
// removes the journal. So a Write that stops for any reason leaves the old
// set of files or the new one:
//
//   - an error before the commit point (a full disk, a file it cannot
//     create, a failed sync) or a cancelled context (WriteContext: the
//     CLI's SIGINT or SIGTERM) removes what it staged and the directories
//     it created, and the directory is exactly as before (an interruption
//     is an *InterruptedError); a cancel after it is ignored, and the
//     Write finishes: renames and removals need no new space and take
//     little time;
//   - a Write that dies (SIGKILL, a crash, a power cut) leaves the journal,
//     and the next Write into the directory, before anything else, undoes
//     it (before its commit point: the temporary files and new directories
//     are removed) or finishes it (after: the rest renamed and removed, a
//     stale file only while it still has the content it was found with),
//     and says which in Result.Recovered; an error after the commit point
//     leaves the journal for the next Write the same way.
//
// A journal Write cannot have written (entries outside the directory,
// temporary files not named as it names them, not its JSON, not a regular
// file) is refused without being acted on. Directories a Write keeps are
// never removed.
//
// Reads are bounded: the manifest by MaxManifestSize, any other file by
// MaxFileSize (a larger file is "not its own"); generated files above
// MaxFileSize are refused.
//
// Every path is checked before use and refused unless it is a clean,
// relative, slash-separated path inside dir (no "..", no absolute path, no
// control character, no backslash), and so is every manifest entry: a
// hostile manifest cannot make Write remove anything outside dir. As a
// second line of defence every operation goes through an os.Root of dir.
//
// # Directories without a manifest
//
// etcdshapes before the manifest marked generated files with a header
// (Options.Marker) and removed any file carrying it anywhere under the
// directory. Write does not trust the header: in a directory without a
// manifest, an existing file is adopted only when its content is already
// exactly the new content; any other is refused (the message says when it
// carries the marker, so probably came from an earlier etcdshapes) until
// the user compares it and reruns with Force. Files an earlier version wrote
// and this one no longer generates are not looked for and stay; they carry
// the marker, so the user can find and delete them.
package chartwrite
