//! How commands are declared: [`ipc!`] writes each Tauri command from one declaration — its
//! name, its arguments with their types, its result — and records that same declaration for the
//! TypeScript bindings (`ui/src/lib/bindings/commands.ts`, written by `cargo test`). The UI calls
//! the generated functions, so renaming a command or one of its arguments here fails
//! `svelte-check` instead of failing at run time.

/// Declares Tauri commands. Each is `fn name(context: Type, arg: Type, ...) -> Result { body }`:
/// the first parameter is what Tauri injects (the state or the app handle) and is not part of
/// the IPC call; the body evaluates to `Result<Result, IpcError>`.
macro_rules! ipc {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($ctx:ident: $ctx_ty:ty $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty $body:block
    )*) => {
        $(
            $(#[doc = $doc])*
            #[tauri::command]
            pub async fn $name($ctx: $ctx_ty $(, $arg: $ty)*) -> Result<$ret, $crate::error::IpcError> $body
        )*

        /// The declaration of every command of this module, for the generated TypeScript.
        #[cfg(test)]
        pub fn signatures() -> Vec<$crate::ipc::Signature> {
            vec![$($crate::ipc::Signature {
                name: stringify!($name),
                doc: concat!($($doc, "\n"),*),
                args: vec![$((stringify!($arg), $crate::ipc::ts::<$ty>())),*],
                returns: $crate::ipc::ts::<$ret>(),
            }),*]
        }
    };
}

pub(crate) use ipc;

/// One command as the UI calls it.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct Signature {
    pub name: &'static str,
    pub doc: &'static str,
    /// Argument names as written in Rust (Tauri expects them in camelCase) and their TypeScript.
    pub args: Vec<(&'static str, String)>,
    pub returns: String,
}

/// The TypeScript of `T` as ts-rs names it, with 64-bit integers as `number` (what JSON carries).
#[cfg(test)]
pub fn ts<T: ts_rs::TS>() -> String {
    T::name(&ts_rs::Config::new().with_large_int("number"))
}
