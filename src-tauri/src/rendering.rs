//! How WebKitGTK draws the window: the page painted straight into it rather than composited
//! from layers. The window is lists, text and buttons; composited layers, each with its own
//! backing store and drawn on the compositor's 60 Hz tick, cost it memory and a frame of delay
//! per key without anything on screen needing them (figures in docs/performance.md).

/// WebKitGTK's switch: set to anything but `0`, the page is painted without compositing.
const DISABLE_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// What to set [`DISABLE_COMPOSITING`] to, given its value in the environment now: the person's
/// own choice wins (`WEBKIT_DISABLE_COMPOSITING_MODE=0` brings compositing back).
fn compositing_switch(current: Option<std::ffi::OsString>) -> Option<&'static str> {
    match current {
        Some(_) => None,
        None => Some("1"),
    }
}

/// Turns WebKitGTK's compositing off for this process unless the environment already says.
/// Call it first thing in `main`, before any thread starts: it changes the environment, which
/// WebKit reads when the window is created.
pub fn paint_without_compositing() {
    if let Some(value) = compositing_switch(std::env::var_os(DISABLE_COMPOSITING)) {
        std::env::set_var(DISABLE_COMPOSITING, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compositing_is_turned_off_when_the_environment_says_nothing() {
        assert_eq!(compositing_switch(None), Some("1"));
    }

    #[test]
    fn a_person_who_wants_compositing_back_keeps_it() {
        assert_eq!(compositing_switch(Some("0".into())), None);
    }
}
