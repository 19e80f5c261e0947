/* bench/cfront/pch_probe.c: what a precompiled header shared by units would
 * save, measured outside ravel (nothing of ravel uses it). Reads an args
 * file (one unit a line: directory, file, then the compiler's arguments
 * without -c/-o, tab-separated; pch_probe.sh writes it from a compilation
 * database) and parses every unit with libclang, in mode 0 as ravel does
 * (CXTranslationUnit_KeepGoing), in mode 1 with a PCH shared by the units
 * whose first non-comment line is the same #include and whose directory and
 * flags are the same: the PCH is built once from a header holding that
 * line (given to clang as an unsaved file in the unit's directory, so
 * quoted includes resolve as in the unit), and each unit is parsed with
 * -include-pch and its text with that line blanked (same length, so every
 * location stays). Prints the units, the PCHs, the units parsed with one,
 * the CPU seconds and the error diagnostics (which must not change).
 * Mode 2 shares instead the longest run of leading #include lines that
 * another unit of the same directory and flags also begins with.
 *   pch_probe ARGS-FILE MODE(0|1|2)  (PCH_DIR: where the PCHs go, /tmp) */
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double cpu(void){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}
typedef struct { char *dir,*file,*text; size_t len; const char *a[512]; int na; char inc[8192]; long off[32], ln[32]; int ninc, k; char flags[8192]; char key[16384]; } unit;
static char *slurp(const char*p,size_t*n){FILE*f=fopen(p,"rb");if(!f)return 0;fseek(f,0,2);long l=ftell(f);rewind(f);char*b=malloc(l+1);*n=fread(b,1,l,f);b[*n]=0;fclose(f);return b;}
/* the leading #include lines (up to 32), with only blank lines and
 * comments before and between them */
static void leading_includes(unit*u){
  const char*s=u->text,*e=s+u->len;
  while(s<e&&u->ninc<32){
    if(*s==' '||*s=='\t'||*s=='\n'||*s=='\r'){s++;continue;}
    if(s[0]=='/'&&s[1]=='*'){const char*q=strstr(s+2,"*/");if(!q)return;s=q+2;continue;}
    if(s[0]=='/'&&s[1]=='/'){while(s<e&&*s!='\n')s++;continue;}
    if(*s!='#')return;
    const char*q=s+1;while(*q==' '||*q=='\t')q++;
    if(strncmp(q,"include",7))return;
    const char*nl=strchr(s,'\n');if(!nl)return;
    const char*cm=strstr(s,"/*"),*cl=strstr(s,"//");
    if(memchr(s,'\\',nl-s)||(cm&&cm<nl)||(cl&&cl<nl))return;
    u->off[u->ninc]=s-u->text;u->ln[u->ninc]=nl-s;u->ninc++;s=nl;
  }
}
static int same_line(const unit*x,const unit*y,int i){
  return x->ln[i]==y->ln[i]&&!memcmp(x->text+x->off[i],y->text+y->off[i],x->ln[i]);
}
int main(int argc,char**argv){
  if(argc<3){fprintf(stderr,"usage: pch_probe ARGS-FILE MODE\n");return 2;}
  FILE*f=fopen(argv[1],"r"); static char line[65536]; unit*us=calloc(400,sizeof*us); int n=0;
  int mode=atoi(argv[2]); /* 0 baseline, 1 a pch of the first include, 2 of the longest shared run of leading includes */
  while(fgets(line,sizeof line,f)){
    line[strcspn(line,"\n")]=0; unit*u=&us[n++];
    char*s=strtok(strdup(line),"\t"); u->dir=s; u->file=strtok(0,"\t");
    while((s=strtok(0,"\t"))) u->a[u->na++]=s;
    char p[8192]; snprintf(p,sizeof p,"%s",u->file); if(p[0]!='/')snprintf(p,sizeof p,"%s/%s",u->dir,u->file);
    u->text=slurp(p,&u->len); leading_includes(u);
    int o=snprintf(u->flags,sizeof u->flags,"%s|",u->dir); for(int i=0;i<u->na;i++) o+=snprintf(u->flags+o,sizeof u->flags-o,"%s ",u->a[i]);
  }
  CXIndex idx=clang_createIndex(0,0); double t0=cpu(); int npch=0, shared=0; unsigned ndiag_total=0;
  char **pchkey=calloc(n,sizeof(char*)); char **pchfile=calloc(n,sizeof(char*)); int *users=calloc(n,sizeof(int));
  for(int i=0;i<n;i++){ /* k: 1 in mode 1; in mode 2 the longest run another unit shares */
    unit*u=&us[i]; u->k=0;
    if(mode==1) u->k=u->ninc>0;
    else if(mode==2) for(int j=0;j<n;j++){ if(j==i||strcmp(u->flags,us[j].flags))continue; int k=0; while(k<u->ninc&&k<us[j].ninc&&same_line(u,&us[j],k))k++; if(k>u->k)u->k=k; }
    int o=0; for(int q=0;q<u->k;q++) o+=snprintf(u->inc+o,sizeof u->inc-o,"%.*s\n",(int)u->ln[q],u->text+u->off[q]);
    snprintf(u->key,sizeof u->key,"%s|%s",u->flags,u->inc);
  }
  for(int i=0;i<n;i++){ if(!us[i].inc[0]) continue; for(int j=0;j<n;j++) if(j!=i&&us[j].inc[0]&&!strcmp(us[i].key,us[j].key)) {users[i]++;} }
  for(int i=0;i<n;i++){
    unit*u=&us[i]; if(chdir(u->dir))return 1;
    const char*a[520]; int na=0; for(int k=0;k<u->na;k++)a[na++]=u->a[k];
    struct CXUnsavedFile un; int nun=0; char *blank=0; char pchpath[300];
    char mainpath[8192]; snprintf(mainpath,sizeof mainpath,"%s%s%s",u->file[0]=='/'?"":u->dir,u->file[0]=='/'?"":"/",u->file);
    if(mode>=1&&u->inc[0]&&users[i]>0){
      int g=-1; for(int k=0;k<npch;k++) if(!strcmp(pchkey[k],u->key)) g=k;
      if(g<0){ /* build the group's pch: a header in the unit's directory with the include line */
        char hdr[8400]; char *d=strdup(mainpath); *strrchr(d,'/')=0; snprintf(hdr,sizeof hdr,"%s/.ravel-pre-%d.h",d,npch);
        struct CXUnsavedFile h={hdr,u->inc,strlen(u->inc)};
        const char*ha[530];int hn=0; for(int k=0;k<u->na;k++)ha[hn++]=u->a[k]; ha[hn++]="-x"; ha[hn++]="c-header";
        CXTranslationUnit ht=0; clang_parseTranslationUnit2(idx,hdr,ha,hn,&h,1,CXTranslationUnit_KeepGoing|CXTranslationUnit_ForSerialization,&ht);
        snprintf(pchpath,sizeof pchpath,"%s/pre-%d.pch",getenv("PCH_DIR")?getenv("PCH_DIR"):"/tmp",npch);
        if(!ht||clang_saveTranslationUnit(ht,pchpath,0)!=CXSaveError_None){fprintf(stderr,"pch failed\n");}
        if(ht)clang_disposeTranslationUnit(ht);
        pchkey[npch]=u->key; pchfile[npch]=strdup(pchpath); g=npch++;
      }
      a[na++]="-include-pch"; a[na++]=pchfile[g];
      blank=malloc(u->len+1); memcpy(blank,u->text,u->len); for(int q=0;q<u->k;q++) memset(blank+u->off[q],' ',u->ln[q]);
      un.Filename=mainpath; un.Contents=blank; un.Length=u->len; nun=1; shared++;
    }
    CXTranslationUnit tu=0;
    clang_parseTranslationUnit2(idx,mainpath,a,na,nun?&un:0,nun,CXTranslationUnit_KeepGoing,&tu);
    if(tu){ unsigned nd=clang_getNumDiagnostics(tu); unsigned ne=0; for(unsigned k=0;k<nd;k++){CXDiagnostic dg=clang_getDiagnostic(tu,k); if(clang_getDiagnosticSeverity(dg)>=CXDiagnostic_Error){ne++; if(getenv("SHOW")){CXString s=clang_formatDiagnostic(dg,clang_defaultDiagnosticDisplayOptions());fprintf(stderr,"%s\n",clang_getCString(s));clang_disposeString(s);}} clang_disposeDiagnostic(dg);} ndiag_total+=ne; clang_disposeTranslationUnit(tu);} else fprintf(stderr,"fail %s\n",u->file);
    free(blank);
  }
  printf("mode %d: %d units, %d pch, %d parsed with one, %.3f s CPU, %u errors\n",mode,n,npch,shared,cpu()-t0,ndiag_total);
  return 0;
}
