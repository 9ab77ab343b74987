#!/bin/sh
# Registers the namespace the service uses and its custom search attributes (the list in
# src/temporal/search-attributes.ts), skipping whatever already exists.
set -eu

ns="$TEMPORAL_NAMESPACE"
until temporal operator cluster health --address "$TEMPORAL_ADDRESS"; do
  echo 'waiting for the Temporal frontend...'
  sleep 2
done

temporal operator namespace describe --namespace "$ns" --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1 ||
  temporal operator namespace create --namespace "$ns" --retention 7d --address "$TEMPORAL_ADDRESS"

existing=$(temporal operator search-attribute list --namespace "$ns" --address "$TEMPORAL_ADDRESS")
for attribute in CrawlStatus=Keyword TeamId=Keyword CrawlHost=Keyword PagesDone=Int PagesFailed=Int MonitorId=Keyword; do
  name=${attribute%%=*}
  type=${attribute#*=}
  if echo "$existing" | grep -qw "$name"; then
    echo "search attribute $name exists"
  else
    temporal operator search-attribute create --namespace "$ns" --name "$name" --type "$type" --address "$TEMPORAL_ADDRESS"
  fi
done
echo "namespace $ns is ready"
