// The same start-up probe the app sets when its first screen shows data: a mark once the first
// frame after load has been drawn.
requestAnimationFrame(() => setTimeout(() => performance.mark("blank:first-paint"), 0));
