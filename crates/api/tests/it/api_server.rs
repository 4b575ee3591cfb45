//! The local agent API's protections, checked over real loopback sockets (SPEC B4).

use crate::support;

use std::net::{IpAddr, Ipv4Addr};

use skillcase_testkit::http::Req;
use support::Live;

#[tokio::test]
async fn the_openapi_document_is_served_with_the_token() {
    let live = Live::start().await;
    let reply = live.request("GET", "/v1/openapi.json").send().await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.json()["openapi"], "3.1.0");
}

#[tokio::test]
async fn a_request_without_a_token_is_401_with_a_json_error() {
    let live = Live::start().await;
    let reply = live.request("GET", "/v1/openapi.json").without("Authorization").send().await;
    assert_eq!(reply.status, 401);
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    assert_eq!(reply.code(), "unauthorized");
    assert!(reply.json()["error"]["message"].as_str().unwrap().contains("Authorization: Bearer"));
}

#[tokio::test]
async fn a_wrong_token_is_401() {
    let live = Live::start().await;
    let reply = live.request("GET", "/v1/openapi.json").bearer(&"0".repeat(64)).send().await;
    assert_eq!((reply.status, reply.code()), (401, "unauthorized".to_string()));
}

#[tokio::test]
async fn an_unknown_path_is_401_without_a_token_and_404_with_one() {
    let live = Live::start().await;
    let anonymous = live.request("GET", "/v1/nope").without("Authorization").send().await;
    assert_eq!(anonymous.status, 401);
    let known = live.request("GET", "/v1/nope").send().await;
    assert_eq!((known.status, known.code()), (404, "not_found".to_string()));
}

#[tokio::test]
async fn a_wrong_method_is_405_in_json() {
    let live = Live::start().await;
    let reply = live.request("DELETE", "/v1/openapi.json").send().await;
    assert_eq!((reply.status, reply.code()), (405, "method_not_allowed".to_string()));
}

#[tokio::test]
async fn a_rebinding_host_is_403_even_with_the_token() {
    let live = Live::start().await;
    for host in ["attacker.example:{port}", "127.0.0.1:1", "localhost"] {
        let host = host.replace("{port}", &live.port.to_string());
        let reply = live.request("GET", "/v1/openapi.json").header("Host", &host).send().await;
        assert_eq!((reply.status, reply.code()), (403, "host_not_allowed".to_string()), "{host}");
    }
    let localhost = live
        .request("GET", "/v1/openapi.json")
        .header("Host", &format!("localhost:{}", live.port))
        .send()
        .await;
    assert_eq!(localhost.status, 200);
}

#[tokio::test]
async fn a_second_host_header_is_refused_even_when_the_first_is_the_right_one() {
    let live = Live::start().await;
    let reply = live.request("GET", "/v1/openapi.json").extra_header("Host", "evil.example").send().await;
    assert_eq!((reply.status, reply.code()), (403, "host_not_allowed".to_string()));
}

#[tokio::test]
async fn an_absolute_form_target_is_refused_even_with_the_right_host() {
    let live = Live::start().await;
    for target in
        ["http://evil.example/v1/openapi.json", &format!("http://127.0.0.1:{}/v1/openapi.json", live.port)]
    {
        let reply = Req::new(live.port, "GET", target)
            .header("Host", &format!("127.0.0.1:{}", live.port))
            .bearer(&live.token())
            .send()
            .await;
        assert_eq!((reply.status, reply.code()), (403, "host_not_allowed".to_string()), "{target}");
    }
}

#[tokio::test]
async fn a_refused_request_closes_its_connection() {
    use http_body_util::{BodyExt, Empty};
    let live = Live::start().await;
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", live.port)).await.unwrap();
    let io = hyper_util::rt::TokioIo::new(stream);
    let (mut client, connection) = hyper::client::conn::http1::handshake(io).await.unwrap();
    let connection = tokio::spawn(connection);
    let anonymous = hyper::Request::get("/v1/openapi.json")
        .header("host", format!("127.0.0.1:{}", live.port))
        .body(Empty::<hyper::body::Bytes>::new())
        .unwrap();
    let response = client.send_request(anonymous).await.unwrap();
    assert_eq!(response.status(), 401);
    assert_eq!(response.headers()["connection"], "close");
    response.into_body().collect().await.unwrap();
    let closed = tokio::time::timeout(std::time::Duration::from_secs(2), connection).await;
    assert!(closed.is_ok(), "the server closes the connection after refusing");
    assert!(client.is_closed(), "an unauthenticated client cannot keep the connection");
}

#[tokio::test]
async fn a_request_without_a_host_header_is_403() {
    let live = Live::start().await;
    let reply = live.request("GET", "/v1/openapi.json").without("Host").send().await;
    assert_eq!((reply.status, reply.code()), (403, "host_not_allowed".to_string()));
}

#[tokio::test]
async fn a_request_with_an_origin_is_403_and_carries_no_cors_header() {
    let live = Live::start().await;
    let reply =
        live.request("GET", "/v1/openapi.json").header("Origin", "https://attacker.example").send().await;
    assert_eq!((reply.status, reply.code()), (403, "origin_not_allowed".to_string()));
    assert_eq!(reply.cors_headers(), Vec::<&str>::new());
}

#[tokio::test]
async fn a_cors_preflight_gets_no_grant() {
    let live = Live::start().await;
    let preflight = Req::new(live.port, "OPTIONS", "/v1/cases")
        .header("Host", &format!("127.0.0.1:{}", live.port))
        .header("Origin", "https://attacker.example")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization, content-type");
    let reply = preflight.send().await;
    assert_eq!((reply.status, reply.code()), (403, "origin_not_allowed".to_string()));
    assert_eq!(reply.cors_headers(), Vec::<&str>::new());
    let plain_options = live.request("OPTIONS", "/v1/openapi.json").send().await;
    assert_eq!(plain_options.status, 405);
    assert_eq!(plain_options.cors_headers(), Vec::<&str>::new());
}

#[tokio::test]
async fn a_body_declared_over_256_kb_is_413() {
    let live = Live::start().await;
    let body = format!("{{\"pad\":\"{}\"}}", "x".repeat(256 * 1024));
    let reply =
        live.request("POST", "/v1/openapi.json").raw_body("application/json", body.into_bytes()).send().await;
    assert_eq!((reply.status, reply.code()), (413, "body_too_large".to_string()));
}

#[tokio::test]
async fn a_body_that_is_not_json_is_415() {
    let live = Live::start().await;
    let reply =
        live.request("POST", "/v1/openapi.json").raw_body("text/plain", b"hello".to_vec()).send().await;
    assert_eq!((reply.status, reply.code()), (415, "unsupported_media_type".to_string()));
    let form = live
        .request("POST", "/v1/openapi.json")
        .raw_body("application/x-www-form-urlencoded", b"a=1".to_vec())
        .send()
        .await;
    assert_eq!(form.status, 415);
}

#[tokio::test]
async fn rotating_the_token_refuses_the_old_one_at_once() {
    let live = Live::start().await;
    let old = live.token();
    assert_eq!(live.request("GET", "/v1/openapi.json").send().await.status, 200);
    let new = live.state.app.tokens().rotate().unwrap();
    let with_old = live.request("GET", "/v1/openapi.json").bearer(&old).send().await;
    assert_eq!(with_old.status, 401);
    let with_new = live.request("GET", "/v1/openapi.json").bearer(new.as_str()).send().await;
    assert_eq!(with_new.status, 200);
}

#[tokio::test]
async fn a_rotation_written_by_another_process_takes_effect_at_once() {
    let live = Live::start().await;
    let old = live.token();
    let new = skillcase_application::token::rotate_file(live.state.app.tokens().path()).unwrap();
    assert_eq!(live.request("GET", "/v1/openapi.json").bearer(&old).send().await.status, 401);
    assert_eq!(live.request("GET", "/v1/openapi.json").bearer(new.as_str()).send().await.status, 200);
}

#[tokio::test]
async fn the_server_listens_on_127_0_0_1_only() {
    let live = Live::start().await;
    assert_eq!(live.server.local_addr().ip(), IpAddr::V4(Ipv4Addr::LOCALHOST));
    let other_loopback = tokio::net::TcpStream::connect(("127.0.0.2", live.port)).await;
    assert!(other_loopback.is_err(), "a socket bound to every address would accept 127.0.0.2");
    let ipv6 = tokio::net::TcpStream::connect(("::1", live.port)).await;
    assert!(ipv6.is_err(), "the server must not listen on IPv6 loopback either");
}

#[tokio::test]
async fn shutdown_stops_accepting_connections() {
    let live = Live::start().await;
    let port = live.port;
    live.server.shutdown().await.unwrap();
    assert!(tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err());
}
