# A one-node Ceph RADOS Gateway on 127.0.0.1 (memstore OSD), as GalleryTestSupport's RadosGateway starts it,
# for the Scripts that need a real S3-compatible store. Source it after bench-lib.sh, then:
#   gateway_start WORK      starts mon, osd and radosgw under WORK/ceph (three tries); sets $endpoint,
#                           exports AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_REGION for a user it creates
#   gateway_bucket NAME     creates the bucket NAME
#   gateway_stop            stops the daemons
# The monitor listens on its own port only (msgr v1): on a machine where another test cluster runs, a
# daemon that found the default ports would join the wrong cluster ("wrong fsid").
gateway_try() {
  ceph=$1/ceph
  rm -rf "$ceph"; mkdir -p "$ceph"/{run,log,mon,osd/ceph-0,rgw}
  local mon_port rgw_port fsid osd_uuid
  mon_port=$(bench_free_port); rgw_port=$(bench_free_port)
  fsid=$(python3 -c 'import uuid; print(uuid.uuid4())')
  cat > "$ceph/ceph.conf" <<CONF
[global]
fsid = $fsid
mon host = v1:127.0.0.1:$mon_port
mon initial members = a
ms bind msgr2 = false
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
osd objectstore = memstore
memstore device bytes = 6442450944
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
osd crush chooseleaf type = 0
run dir = $ceph/run
admin socket = $ceph/run/\$name.asok
pid file = $ceph/run/\$name.pid
log file = $ceph/log/\$name.log
keyring = $ceph/keyring
mon data = $ceph/mon/\$cluster-\$id
osd data = $ceph/osd/\$cluster-\$id

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw data = $ceph/rgw
CONF
  local c=(-c "$ceph/ceph.conf")
  ceph-mon "${c[@]}" --mkfs -i a --fsid "$fsid" >/dev/null 2>&1
  ceph-mon "${c[@]}" -i a -f >/dev/null 2>&1 & mon_pid=$!; pids+=($mon_pid)
  osd_uuid=$(python3 -c 'import uuid; print(uuid.uuid4())')
  timeout 60 ceph "${c[@]}" osd new "$osd_uuid" 0 >/dev/null 2>&1 || return 1
  ceph-osd "${c[@]}" -i 0 --mkfs --osd-uuid "$osd_uuid" >/dev/null 2>&1
  ceph-osd "${c[@]}" -i 0 -f >/dev/null 2>&1 & osd_pid=$!; pids+=($osd_pid)
  radosgw "${c[@]}" -n client.rgw -f >/dev/null 2>&1 & rgw_pid=$!; pids+=($rgw_pid)
  endpoint=http://127.0.0.1:$rgw_port
  for _ in $(seq 240); do
    kill -0 "$osd_pid" 2>/dev/null && kill -0 "$rgw_pid" 2>/dev/null || return 1
    [[ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 "$endpoint/" || true)" == 200 ]] && return 0
    sleep 0.25
  done
  return 1
}

gateway_stop() {
  for pid in ${rgw_pid:-} ${osd_pid:-} ${mon_pid:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}

gateway_start() {  # WORK
  for tool in ceph-mon ceph-osd radosgw radosgw-admin curl; do
    command -v "$tool" >/dev/null || { echo "gateway-lib: $tool is missing; run Scripts/bootstrap" >&2; return 2; }
  done
  local attempt
  for attempt in 1 2 3; do
    gateway_try "$1" && break
    echo "gateway-lib: the gateway did not start (attempt $attempt): $(tail -n 2 "$1/ceph/log/osd.0.log" 2>/dev/null)" >&2
    gateway_stop
    [[ $attempt == 3 ]] && return 1
  done
  export AWS_ACCESS_KEY_ID=FGBENCHACCESSKEY0001 AWS_SECRET_ACCESS_KEY=fg-bench-secret-key-0000000000000001 AWS_REGION=us-east-1
  radosgw-admin -c "$ceph/ceph.conf" user create --uid=fgbench --display-name=bench \
    --access-key="$AWS_ACCESS_KEY_ID" --secret-key="$AWS_SECRET_ACCESS_KEY" >/dev/null
}

gateway_bucket() {  # NAME
  curl -sf -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" "$endpoint/$1" >/dev/null
}

gateway_gets() {  # the bytes the gateway's GETs have served so far (its perf counter rgw.get_b)
  ceph -c "$ceph/ceph.conf" daemon "$ceph/run/client.rgw.asok" perf dump 2>/dev/null \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); r=d.get("rgw") or next(v for k,v in d.items() if k.startswith("rgw")); print(r.get("get_b", 0))'
}
