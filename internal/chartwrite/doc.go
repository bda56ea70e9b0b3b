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
// name), are a single *invalid.Error, also before any change. Each file is written to a temporary file in its own directory and
// renamed over the target, so a reader never sees half a file and a hard
// link elsewhere keeps its content. The manifest is written last; a run
// interrupted before it leaves files the next run adopts because their
// content is what it writes. Directories are created as needed and never
// removed.
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
