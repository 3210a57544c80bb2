import Foundation

/// The `slurm.conf` of a one-node test cluster: controller and node on this machine (its real
/// hostname and CPU count), reached on 127.0.0.1 at free ports, state, spool, logs and the munge
/// socket in the cluster's private folder. No systemd, no cgroups, no accounting: process tracking
/// by /proc (`proctrack/linuxproc`), no task plugin, CPUs as the consumable resource.
struct SlurmConfig {
    var directory: String
    var hostname: String
    var cpus: Int
    var controllerPort: UInt16
    var nodePort: UInt16

    var mungeSocket: String { directory + "/munge/munge.socket" }

    func render() -> String {
        """
        ClusterName=fgtest
        SlurmctldHost=\(hostname)(127.0.0.1)
        SlurmctldPort=\(controllerPort)
        SlurmdPort=\(nodePort)
        AuthType=auth/munge
        AuthInfo=socket=\(mungeSocket)
        CredType=cred/munge
        StateSaveLocation=\(directory)/state
        SlurmdSpoolDir=\(directory)/spool
        SlurmctldPidFile=\(directory)/slurmctld.pid
        SlurmdPidFile=\(directory)/slurmd.pid
        SlurmctldLogFile=\(directory)/slurmctld.log
        SlurmdLogFile=\(directory)/slurmd.log
        SlurmUser=root
        SlurmdUser=root
        ProctrackType=proctrack/linuxproc
        TaskPlugin=task/none
        SelectType=select/cons_tres
        SelectTypeParameters=CR_CPU
        JobAcctGatherType=jobacct_gather/none
        AccountingStorageType=accounting_storage/none
        MpiDefault=none
        ReturnToService=2
        MinJobAge=600
        KillWait=5
        NodeName=\(hostname) NodeAddr=127.0.0.1 CPUs=\(cpus) State=UNKNOWN
        PartitionName=test Nodes=\(hostname) Default=YES MaxTime=INFINITE State=UP

        """
    }
}
