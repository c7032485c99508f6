"""The judge's own Dask cluster: mutual TLS between the scheduler, its workers and `judge grade`/`verify`.

    files.py          the cluster folder (ca.pem, cluster.pem, cluster-key.pem): checked, and turned into Dask's
                      `Security`
    certificates.py   `judge cluster init`: a CA made for this cluster alone, and the one certificate it signs
    address.py        which `--scheduler` addresses a client may use (tls://, or plain tcp:// on loopback only)
    daemons.py        `judge cluster scheduler` / `worker`: Dask's Scheduler and Nannies started with that Security

Dask runs whatever Python a connected client sends, on the scheduler and on every worker; the certificate is
what stands between the network and root on the workers.
"""
