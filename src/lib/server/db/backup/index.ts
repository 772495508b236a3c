/**
 * Backups of the control and session databases (`kantera backup`, `kantera restore`, KANTERA_BACKUP_CRON).
 * Node-only (it writes folders on the local disk): loaded on demand, never by a deployment without backups.
 */
export { runBackup, type BackupDeps, type BackupResult } from './backup';
export { restoreDatabase, verifyEntries } from './restore';
export { pruneBackups, startBackupSchedule } from './schedule';
export { readManifest, BackupError, MANIFEST_FILE, type Manifest, type ManifestEntry } from './manifest';
export { listBackups, latestBackup } from './files';
export { dumpDatabase, loadDatabase, DumpFormatError } from './dump';
