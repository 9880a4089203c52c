# Single-step one __x64_sys_fsconfig() call after the first getppid()
# and count its instructions per function (see README).
import gdb
from collections import Counter
gdb.execute("set pagination off")
gdb.execute("target remote :1234")
gdb.execute("break __x64_sys_getppid")
gdb.execute("continue")
gdb.execute("delete")
gdb.execute("break __x64_sys_fsconfig")
gdb.execute("continue")
gdb.execute("delete")
# return address at the top of the stack on entry
rsp = int(gdb.parse_and_eval("$rsp"))
ret = int(gdb.parse_and_eval("*(unsigned long *)$rsp"))
c = Counter(); n = 0; seq = []
while True:
    pc = int(gdb.parse_and_eval("$pc"))
    if pc == ret: break
    s = gdb.execute("info symbol 0x%x" % pc, to_string=True).split()[0]
    c[s] += 1; n += 1
    if s == "__x64_sys_fsconfig":
        seq.append(gdb.execute("x/i 0x%x" % pc, to_string=True).strip())
    gdb.execute("stepi", to_string=True)
    if n > 200000: break
out = open("out-%s.txt" % gdb.convenience_variable("k").string(), "w")
out.write("total %d\n" % n)
for k, v in c.most_common(): out.write("%6d %s\n" % (v, k))
out.write("\n".join(seq)); out.close()
gdb.execute("kill")
