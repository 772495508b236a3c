/**
 * Backups of the control and session databases, the save slots and the images (`kantera backup`, `kantera restore`, KANTERA_BACKUP_CRON).
 * Node-only (it writes folders on the local disk): loaded on demand, never by a deployment without backups.
 */
export { runBackup, type BackupDeps, type BackupResult } from './backup';
export { restoreDatabase, verifyEntries } from './restore';
export { restoreImages, type BackupImageSource } from './images';
export { verifyBackup, type VerifyReport } from './verify';
export { pruneBackups, startBackupSchedule } from './schedule';
export { readManifest, imageFile, BackupError, MANIFEST_FILE, type Manifest, type ManifestEntry, type ImageEntry } from './manifest';
export { listBackups, latestBackup } from './files';
export { dumpDatabase, loadDatabase, DumpFormatError } from './dump';
