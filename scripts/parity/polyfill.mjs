// The reference CLI 4.1.1 calls `Error.isError` (Node 24+) when it reports an error;
// on older Node it would crash instead of printing its message (exit status 1 either
// way). This gives it the check it expects.
Error.isError ??= (e) => e instanceof Error;
