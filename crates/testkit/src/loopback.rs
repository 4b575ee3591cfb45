//! A test HTTP/1 server on a free port of 127.0.0.1, on a thread of its own with its own runtime,
//! answering each request with `answer(state, request)` until its stop handle is sent or dropped.
//! The fake file server and the scripted MCP catalog are both this loop with their own answers.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use hyper::body::{Body, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Starts serving; returns the port and the handle that stops the server.
pub fn serve<S, B, F>(state: Arc<S>, answer: fn(Arc<S>, Request<Incoming>) -> F) -> (u16, oneshot::Sender<()>)
where
    S: Send + Sync + 'static,
    F: Future<Output = Result<Response<B>, Infallible>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
            port_tx.send(listener.local_addr().unwrap().port()).unwrap();
            let accept = async {
                loop {
                    let Ok((stream, _)) = listener.accept().await else { continue };
                    let state = Arc::clone(&state);
                    tokio::spawn(async move {
                        let service = hyper::service::service_fn(move |req| answer(Arc::clone(&state), req));
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            };
            tokio::select! {
                _ = accept => {}
                _ = stopped => {}
            }
        });
    });
    (port_rx.recv().expect("the test server starts"), stop)
}
