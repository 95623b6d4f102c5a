#!/bin/sh
# A test exec credential plugin: prints an ExecCredential built from its environment, so one
# script covers the token, client-certificate and failure cases of tst_credentials and the
# integration tests. The first argument picks the behaviour.
[ -n "$PLUGIN_COUNT_FILE" ] && echo run >> "$PLUGIN_COUNT_FILE"
[ -n "$PLUGIN_INFO_FILE" ] && printf '%s' "$KUBERNETES_EXEC_INFO" > "$PLUGIN_INFO_FILE"
api="${PLUGIN_API_VERSION:-client.authentication.k8s.io/v1}"
pem() { awk '{printf "%s\\n", $0}' "$1"; }
case "$1" in
fail)
    echo "plugin failed: could not reach the identity provider (key $PLUGIN_SECRET)" >&2
    exit 3 ;;
sleep)
    exec sleep 60 ;;
garbage)
    echo "this is not JSON" ;;
cert)
    printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"clientCertificateData":"%s","clientKeyData":"%s"}}\n' \
        "$api" "$(pem "$PLUGIN_CERT")" "$(pem "$PLUGIN_KEY")" ;;
*)
    printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}\n' \
        "$api" "$PLUGIN_TOKEN" "$PLUGIN_EXPIRY" ;;
esac
