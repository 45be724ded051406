#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <microhttpd.h>

/* MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift
 * cannot call: these wrappers take fixed arguments. */

/* The last message MHD logged, for the error thrown when a daemon does not start. Written by
 * MHD's threads, one at a time, while the daemon runs (and then never read). */
struct imgcache_mhd_log {
    pthread_mutex_t lock;
    char last[512];
};

static inline void imgcache_mhd_log_init(struct imgcache_mhd_log *log) {
    pthread_mutex_init(&log->lock, NULL);
    log->last[0] = 0;
}

static inline void imgcache_mhd_log_destroy(struct imgcache_mhd_log *log) {
    pthread_mutex_destroy(&log->lock);
}

static void imgcache_mhd_log_message(void *cls, const char *format, va_list arguments) {
    struct imgcache_mhd_log *log = cls;
    pthread_mutex_lock(&log->lock);
    vsnprintf(log->last, sizeof log->last, format, arguments);
    pthread_mutex_unlock(&log->lock);
}

/* Everything a daemon is started with. */
struct imgcache_mhd_settings {
    const struct sockaddr *address; /* AF_INET or AF_INET6, with the port (0: any free port) */
    uint16_t port;                  /* the same port, for MHD's messages */
    unsigned int threads;           /* polling threads, each with its own epoll: 1 or more */
    unsigned int connection_limit;
    unsigned int connection_timeout; /* seconds */
    size_t connection_memory_limit;
    MHD_AccessHandlerCallback access_handler;
    MHD_RequestCompletedCallback request_completed;
    MHD_NotifyConnectionCallback connection_notified;
    void *(*uri_received)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *context; /* the closure of every callback above */
    struct imgcache_mhd_log *log;
};

/* Internal threads (one, or a pool) poll the sockets with epoll; handlers suspend their connection
 * and resume it when the response is ready. Strict about the request's syntax (HTTP/1.1 needs
 * Host, no spaces in the target). */
static inline struct MHD_Daemon *imgcache_mhd_start(const struct imgcache_mhd_settings *settings) {
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (settings->address->sa_family == AF_INET6) {
        flags |= MHD_USE_IPv6;
    }
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *)settings->address },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t)settings->connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)settings->connection_timeout, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->connection_memory_limit, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)settings->request_completed, settings->context },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)settings->connection_notified, settings->context },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)settings->uri_received, settings->context },
        { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)imgcache_mhd_log_message, settings->log },
        { MHD_OPTION_STRICT_FOR_CLIENT, 1, NULL },
        /* Last: a single thread ends the list here. */
        { settings->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, (intptr_t)settings->threads, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, settings->port, NULL, NULL, settings->access_handler, settings->context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon listens on (the one the system picked when 0 was asked for); 0 when unknown. */
static inline uint16_t imgcache_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client's address, or NULL. */
static inline const struct sockaddr *imgcache_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* The length of the request line and header fields as received, CRLFs included; 0 when unknown. */
static inline size_t imgcache_mhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* Holds back partial TCP segments on the connection's socket (TCP_CORK) while `on`: libmicrohttpd
 * sends a file response's header and its file with two calls, which would otherwise leave as two
 * packets (two wake-ups of the client) where one does. Clearing it sends what is held. */
static inline void imgcache_mhd_cork(struct MHD_Connection *connection, int on) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info != NULL) {
        (void)setsockopt(info->connect_fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
    }
}
