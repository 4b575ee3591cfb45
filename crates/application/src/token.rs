//! The bearer token that every API request must carry (SPEC B4).
//!
//! The token is 32 random bytes, hex-encoded, kept in `<data dir>/api-token` with mode 0600. It
//! is created on first run (write a temporary file, then hard-link it into place, so two
//! processes starting at once agree on one token) and replaced by [`TokenStore::rotate`]
//! (write a temporary file, then rename over the old one).
//!
//! **Why the store checks the file's identity on each request.** The running server keeps the
//! token in memory, and a rotation inside the same process swaps it at once. A rotation from
//! another process (`skillcase token --rotate` while `skillcase serve` runs) replaces the file
//! by rename, which always gives it a new inode; one `stat` per request (about a microsecond)
//! notices that and reloads, so the old token stops working at once there too. Re-reading the
//! whole file on every request would also work but costs an open and a read each time; an
//! in-memory token alone would miss rotations made elsewhere. If the file disappears the store
//! fails closed: nobody is let in until a token exists again.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use subtle::ConstantTimeEq;

use skillcase_common::error::Coded;

/// The token file's name inside the data directory.
pub const TOKEN_FILE: &str = "api-token";
/// Random bytes in a token (256 bits).
const TOKEN_BYTES: usize = 32;

/// Why the token could not be read, created or rotated.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("cannot {action} the API token file {path}: {source}")]
    Io { action: &'static str, path: String, source: std::io::Error },
    #[error("the API token file {path} does not hold a token (64 hexadecimal characters); delete it to create a new one")]
    Malformed { path: String },
    #[error("the operating system could not supply random bytes for a token: {0}")]
    Random(String),
}

impl Coded for TokenError {
    fn code(&self) -> &'static str {
        match self {
            TokenError::Io { .. } => "token_io",
            TokenError::Malformed { .. } => "token_malformed",
            TokenError::Random(_) => "token_random",
        }
    }
}

/// A bearer token. Its `Debug` output hides the value so it never lands in a log.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Token {
    /// A fresh token from the operating system's random source.
    pub fn generate() -> Result<Self, TokenError> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| TokenError::Random(e.to_string()))?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// Parses the text of a token file (surrounding whitespace ignored).
    fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let well_formed = text.len() == TOKEN_BYTES * 2
            && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        well_formed.then(|| Token(text.to_string()))
    }

    /// The token text, as the agent sends it after `Bearer `.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `presented` is this token, compared in constant time so response timing reveals
    /// nothing about how much of a guess was right.
    pub fn matches(&self, presented: &[u8]) -> bool {
        self.0.as_bytes().ct_eq(presented).into()
    }
}

/// The token of one data directory, as the running server checks it.
#[derive(Debug)]
pub struct TokenStore {
    path: PathBuf,
    cached: RwLock<Cached>,
}

#[derive(Debug, Clone)]
struct Cached {
    token: Token,
    identity: Option<FileIdentity>,
}

/// What tells two versions of the token file apart without reading them.
type FileIdentity = (u64, u64);

impl TokenStore {
    /// Reads the token of `data_dir`, creating the directory and the token on first run.
    pub fn open(data_dir: &Path) -> Result<Self, TokenError> {
        let path = data_dir.join(TOKEN_FILE);
        let token = load_or_create(&path)?;
        let identity = identity(&path)?;
        Ok(TokenStore { path, cached: RwLock::new(Cached { token, identity }) })
    }

    /// Where the token lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The token in force now, reloaded if another process replaced the file.
    pub fn current(&self) -> Result<Token, TokenError> {
        let now = identity(&self.path)?;
        {
            let cached = self.cached.read().unwrap_or_else(|p| p.into_inner());
            if now.is_some() && cached.identity == now {
                return Ok(cached.token.clone());
            }
        }
        let token = read_token(&self.path)?;
        let mut cached = self.cached.write().unwrap_or_else(|p| p.into_inner());
        *cached = Cached { token: token.clone(), identity: now };
        Ok(token)
    }

    /// Whether `presented` is the token in force now.
    pub fn verify(&self, presented: &str) -> Result<bool, TokenError> {
        Ok(self.current()?.matches(presented.as_bytes()))
    }

    /// Replaces the token with a new random one; the old one is refused from this call on.
    pub fn rotate(&self) -> Result<Token, TokenError> {
        let mut cached = self.cached.write().unwrap_or_else(|p| p.into_inner());
        let token = rotate_file(&self.path)?;
        *cached = Cached { token: token.clone(), identity: identity(&self.path)? };
        Ok(token)
    }
}

/// Reads the token at `path`, or creates one there (mode 0600) if there is none yet.
pub fn load_or_create(path: &Path) -> Result<Token, TokenError> {
    match read_token(path) {
        Err(TokenError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
        found => return found,
    }
    let token = Token::generate()?;
    let temp = write_temp(path, &token)?;
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => {
            sync_dir(path)?;
            Ok(token)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_token(path),
        Err(source) => Err(io("create", path, source)),
    }
}

/// Writes a new random token to `path` (mode 0600), atomically replacing any old one.
pub fn rotate_file(path: &Path) -> Result<Token, TokenError> {
    let token = Token::generate()?;
    let temp = write_temp(path, &token)?;
    if let Err(source) = fs::rename(&temp, path) {
        let _ = fs::remove_file(&temp);
        return Err(io("replace", path, source));
    }
    sync_dir(path)?;
    Ok(token)
}

fn read_token(path: &Path) -> Result<Token, TokenError> {
    tighten_permissions(path)?;
    let text = fs::read_to_string(path).map_err(|e| io("read", path, e))?;
    Token::parse(&text).ok_or_else(|| TokenError::Malformed { path: path.display().to_string() })
}

/// Writes `token` to a new private file next to `path` and makes it durable.
fn write_temp(path: &Path, token: &Token) -> Result<PathBuf, TokenError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| io("create the directory of", path, e))?;
    let suffix = Token::generate()?;
    let temp = dir.join(format!(".{TOKEN_FILE}.{}.tmp", &suffix.as_str()[..16]));
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temp).and_then(|mut file| {
        file.write_all(format!("{}\n", token.as_str()).as_bytes())?;
        file.sync_all()
    });
    if let Err(source) = written {
        let _ = fs::remove_file(&temp);
        return Err(io("write", path, source));
    }
    Ok(temp)
}

/// A token file readable by others may have leaked; it is at least made private from now on.
fn tighten_permissions(path: &Path) -> Result<(), TokenError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = fs::metadata(path).map_err(|e| io("read", path, e))?;
        if meta.permissions().mode() & 0o077 != 0 {
            fs::set_permissions(path, fs::Permissions::from_mode(0o600))
                .map_err(|e| io("restrict the permissions of", path, e))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(unix)]
fn identity(path: &Path) -> Result<Option<FileIdentity>, TokenError> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(path).map_err(|e| io("read", path, e))?;
    Ok(Some((meta.dev(), meta.ino())))
}

/// Without inode numbers the file is re-read on every request.
#[cfg(not(unix))]
fn identity(path: &Path) -> Result<Option<FileIdentity>, TokenError> {
    fs::metadata(path).map_err(|e| io("read", path, e))?;
    Ok(None)
}

fn sync_dir(path: &Path) -> Result<(), TokenError> {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        skillcase_common::durable::sync_dir(dir).map_err(|e| io("sync the directory of", path, e))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn io(action: &'static str, path: &Path, source: std::io::Error) -> TokenError {
    TokenError::Io { action, path: path.display().to_string(), source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_run_creates_a_private_64_hex_character_token() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path()).unwrap();
        let token = store.current().unwrap();
        assert_eq!(token.as_str().len(), 64);
        assert!(token.as_str().bytes().all(|b| b.is_ascii_hexdigit()));
        let on_disk = fs::read_to_string(dir.path().join(TOKEN_FILE)).unwrap();
        assert_eq!(on_disk, format!("{}\n", token.as_str()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(TOKEN_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_second_start_reads_the_same_token_and_leaves_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let first = TokenStore::open(dir.path()).unwrap().current().unwrap();
        let second = TokenStore::open(dir.path()).unwrap().current().unwrap();
        assert_eq!(first, second);
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from(TOKEN_FILE)]);
    }

    #[test]
    fn rotation_refuses_the_old_token_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path()).unwrap();
        let old = store.current().unwrap();
        let new = store.rotate().unwrap();
        assert_ne!(old, new);
        assert!(!store.verify(old.as_str()).unwrap());
        assert!(store.verify(new.as_str()).unwrap());
    }

    #[test]
    fn a_rotation_by_another_process_is_noticed_on_the_next_check() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path()).unwrap();
        let old = store.current().unwrap();
        let new = rotate_file(&dir.path().join(TOKEN_FILE)).unwrap();
        assert!(!store.verify(old.as_str()).unwrap());
        assert!(store.verify(new.as_str()).unwrap());
    }

    #[test]
    fn a_deleted_token_file_lets_nobody_in() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path()).unwrap();
        let token = store.current().unwrap();
        fs::remove_file(dir.path().join(TOKEN_FILE)).unwrap();
        let err = store.verify(token.as_str()).unwrap_err();
        assert_eq!(err.code(), "token_io");
    }

    #[test]
    fn a_file_that_is_not_a_token_is_refused_with_a_fix() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(TOKEN_FILE), "hunter2\n").unwrap();
        let err = TokenStore::open(dir.path()).unwrap_err();
        assert_eq!(err.code(), "token_malformed");
        assert!(err.to_string().contains("delete it to create a new one"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_readable_by_others_is_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TOKEN_FILE);
        fs::write(&path, format!("{}\n", "ab".repeat(32))).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        TokenStore::open(dir.path()).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn comparison_needs_every_byte_and_the_exact_length() {
        let token = Token::parse(&"ab".repeat(32)).unwrap();
        assert!(token.matches("ab".repeat(32).as_bytes()));
        assert!(!token.matches(format!("{}ac", "ab".repeat(31)).as_bytes()));
        assert!(!token.matches("ab".repeat(31).as_bytes()));
        assert!(!token.matches(b""));
    }
}
