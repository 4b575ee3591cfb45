//! [`SkillcaseMcp`]: the MCP server of one connection (or, for a session-less HTTP request, of
//! one request) — capabilities, and each protocol method routed to the module that owns it:
//! [`crate::extension`] (skills), [`crate::resources`], [`crate::tools`], [`crate::prompts`],
//! [`crate::notify`]. It also tells the application which client is connected
//! ([`App::mcp_connected`], [`App::mcp_seen`]), from `initialize` or from each request's
//! `clientInfo`.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode,
    ExtensionCapabilities, GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerInfo, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};
use serde_json::json;
use skillcase_application::mcp_clients::{McpConnection, McpTransport, NewMcpClient};
use skillcase_application::App;
use skillcase_common::error::Coded;
use skillcase_common::ErrorBody;

use crate::catalog::Catalog;
use crate::error::{tool_error, LimitError};
use crate::limits::{McpLimits, MAX_URI_CHARS};
use crate::notify::{self, Subscribed};
use crate::{extension, prompts, resources, tools};

/// What the server tells a client about itself.
const INSTRUCTIONS: &str = "Skillcase is the back office of this support agent. Its skills are served through the Skills \
extension (skills/list, skill:// resources) and as tools: get the index with the skills_index prompt, read a skill with \
read_skill (pass the conversation_id) and its files with read_skill_file. When you cannot resolve a request, open_case; \
before sending each message to the lead, call check_message and follow its verdict.";

/// The tools and prompts never change while a server runs: a listing stays fresh for an hour.
const FIXED_TTL_MS: u64 = 3_600_000;

/// One connection's server.
pub struct SkillcaseMcp {
    app: App,
    catalog: Arc<Catalog>,
    transport: McpTransport,
    limits: McpLimits,
    /// The client of a connection with a lifetime, while it lasts.
    connection: Mutex<Option<McpConnection>>,
    /// URIs subscribed with `resources/subscribe` (pre-2026 clients).
    subscribed: Subscribed,
    /// The task forwarding changes to a pre-2026 connection.
    forwarder: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl std::fmt::Debug for SkillcaseMcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillcaseMcp").field("transport", &self.transport).finish_non_exhaustive()
    }
}

impl Drop for SkillcaseMcp {
    fn drop(&mut self) {
        if let Some(forwarder) = lock(&self.forwarder).take() {
            forwarder.abort();
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl SkillcaseMcp {
    /// A server for one connection over `transport`, reading skills through `catalog` (shared by
    /// every connection of the process), held to `limits`.
    pub fn new(app: App, catalog: Arc<Catalog>, transport: McpTransport, limits: McpLimits) -> Self {
        SkillcaseMcp {
            app,
            catalog,
            transport,
            limits,
            connection: Mutex::new(None),
            subscribed: Subscribed::default(),
            forwarder: Mutex::new(None),
        }
    }

    /// Notes the client of a 2026-07-28 request (its `_meta` names it; earlier clients were
    /// noted at `initialize`). Over stdio the process is that client's connection; over HTTP each
    /// request renews a lease.
    fn note(&self, context: &RequestContext<RoleServer>, hold: bool) -> Option<McpConnection> {
        let info = context.meta.client_info()?;
        let client = NewMcpClient { name: info.name, version: info.version, transport: self.transport };
        match self.transport {
            McpTransport::Stdio => {
                let mut connection = lock(&self.connection);
                if connection.is_none() {
                    *connection = Some(self.app.mcp_connected(client));
                }
                None
            }
            McpTransport::StreamableHttp => self.app.mcp_seen(client, hold),
        }
    }
}

/// The server's capabilities: tools, the one prompt, resources with subscriptions and list
/// changes, and the Skills extension with `resources/directory/read`.
fn capabilities() -> ServerCapabilities {
    let mut extensions = ExtensionCapabilities::new();
    let settings = json!({ "directoryRead": true }).as_object().cloned().expect("an object");
    extensions.insert(extension::EXTENSION_ID.to_string(), settings);
    ServerCapabilities::builder()
        .enable_extensions_with(extensions)
        .enable_prompts()
        .enable_resources()
        .enable_resources_list_changed()
        .enable_resources_subscribe()
        .enable_tools()
        .build()
}

#[allow(
    deprecated,
    reason = "resources/subscribe still serves clients of protocol versions before 2026-07-28"
)]
impl ServerHandler for SkillcaseMcp {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(capabilities())
            .with_server_info(
                Implementation::new("skillcase", env!("CARGO_PKG_VERSION")).with_title("Skillcase"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if let Some(info) = context.peer.peer_info() {
            let client = NewMcpClient {
                name: info.client_info.name.clone(),
                version: info.client_info.version.clone(),
                transport: self.transport,
            };
            *lock(&self.connection) = Some(self.app.mcp_connected(client));
        }
        let forwarder = notify::forward(&self.app, context.peer.clone(), Arc::clone(&self.subscribed));
        if let Some(old) = lock(&self.forwarder).replace(forwarder) {
            old.abort();
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.note(&context, false);
        Ok(ListToolsResult::with_all_items(tools::all())
            .with_ttl_ms(FIXED_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.note(&context, false);
        let deadline = self.limits.call_timeout;
        match tokio::time::timeout(deadline, tools::call(&self.app, &request.name, request.arguments)).await {
            Ok(Some(result)) => Ok(result.into()),
            Ok(None) => Err(ErrorData::new(
                ErrorCode::INVALID_PARAMS,
                format!("no tool named {:?}; see tools/list", request.name),
                Some(json!({ "code": "unknown_tool" })),
            )),
            Err(_) => {
                let refused = LimitError::Timeout { after: deadline };
                Ok(tool_error(ErrorBody::new(refused.code(), refused.to_string())).into())
            }
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.note(&context, false);
        Ok(ListPromptsResult::with_all_items(prompts::all())
            .with_ttl_ms(FIXED_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.note(&context, false);
        match prompts::get(&self.app, &request.name, request.arguments.as_ref()).await {
            Some(result) => Ok(result?.into()),
            None => Err(ErrorData::new(
                ErrorCode::INVALID_PARAMS,
                format!("no prompt named {:?}; see prompts/list", request.name),
                Some(json!({ "code": "unknown_prompt" })),
            )),
        }
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.note(&context, false);
        Ok(resources::list(&self.catalog, request.and_then(|r| r.cursor)).await?)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.note(&context, false);
        Ok(resources::read(&self.catalog, request.uri).await?.into())
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.resources_list_changed = requested.resources_list_changed;
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|uri| uri.chars().count() <= MAX_URI_CHARS)
                .take(self.limits.max_subscriptions)
                .cloned()
                .collect()
        });
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _held = self.note(context.request_context(), true);
        notify::listen(&self.app, &context).await;
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let chars = request.uri.chars().count();
        if chars > MAX_URI_CHARS {
            return Err(LimitError::UriTooLong { chars, max: MAX_URI_CHARS }.into());
        }
        let mut subscribed = lock(&self.subscribed);
        if subscribed.len() >= self.limits.max_subscriptions && !subscribed.contains(&request.uri) {
            return Err(LimitError::TooManySubscriptions { max: self.limits.max_subscriptions }.into());
        }
        subscribed.insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        lock(&self.subscribed).remove(&request.uri);
        Ok(())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.note(&context, false);
        if !extension::METHODS.contains(&request.method.as_str()) {
            return Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None));
        }
        let answer = extension::answer(&self.catalog, &request.method, request.params).await?;
        Ok(CustomResult::new(answer))
    }
}
